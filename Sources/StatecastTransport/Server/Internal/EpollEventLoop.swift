internal import CLibWebSockets

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A libev event loop on epoll that the server's libwebsockets context runs on, instead
/// of lws' default `poll()` loop.
///
/// Why: `poll()` hands the kernel every descriptor on every wake-up, and lws then scans
/// them all, so with 20,000 idle connections the keep-alive pings alone kept a core busy
/// and a new client waited seconds. epoll costs per event, not per connection. lws 4.1
/// loads its libev glue as a plugin (`LWS_SERVER_OPTION_LIBEV`); the transport creates
/// the loop itself and passes it as a foreign loop, so that it keeps driving the loop one
/// wake-up at a time (`ev_run(EVRUN_ONCE)` where it would call `lws_service`), checks its
/// stop flag between wake-ups, and lws installs no SIGINT watcher of its own.
///
/// libev is reached through `dlopen`/`dlsym` (the lws plugin links it, and the C module
/// has no libev header): four functions with plain C signatures. When libev or the
/// plugin is missing, ``make()`` answers `nil` and the transport falls back to `poll()`.
/// Created on the starting thread, then used by the service thread alone (inside the
/// ``ServerContext`` that owns it).
final class EpollEventLoop {

  private typealias LoopNew = @convention(c) (UInt32) -> OpaquePointer?
  private typealias Run = @convention(c) (OpaquePointer?, Int32) -> Int32
  private typealias LoopDestroy = @convention(c) (OpaquePointer?) -> Void
  private typealias Backend = @convention(c) (OpaquePointer?) -> UInt32
  private typealias TimerControl = @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?) -> Void
  /// libev's timer callback: `void (*)(struct ev_loop *, ev_timer *, int revents)`.
  typealias TimerCallback = @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?, Int32) -> Void

  /// libev's `EVBACKEND_EPOLL`.
  private static let epollBackend: UInt32 = 0x4
  /// libev's `EVFLAG_NOSIGMASK`: leave the process's signal mask alone.
  private static let noSignalMask: UInt32 = 0x0040_0000
  /// libev's `EVRUN_ONCE`: wait for at least one event, handle what is ready, return.
  private static let runOnce: Int32 = 2
  /// The plugin lws loads for `LWS_SERVER_OPTION_LIBEV`.
  static let pluginPath = LWS_INSTALL_LIBDIR + "/libwebsockets-evlib_ev.so"

  /// The `struct ev_loop *`, valid until ``destroy()``.
  let loop: OpaquePointer
  private let run: Run
  private let loopDestroy: LoopDestroy
  private let timerStart: TimerControl
  private let timerStop: TimerControl
  /// An `ev_timer` (48 bytes in libev 4: `active`, `pending`, `priority`, `data`, `cb`,
  /// `at`, `repeat`), allocated here because the C module has no libev header.
  private let tick: UnsafeMutableRawPointer
  private var ticking = false
  private var destroyed = false

  private init(
    loop: OpaquePointer, run: @escaping Run, destroy: @escaping LoopDestroy,
    timerStart: @escaping TimerControl,
    timerStop: @escaping TimerControl
  ) {
    self.loop = loop
    self.run = run
    self.loopDestroy = destroy
    self.timerStart = timerStart
    self.timerStop = timerStop
    tick = calloc(1, 64)!
  }

  deinit {
    free(tick)
  }

  /// A new epoll loop, or `nil` when libev, lws' libev plugin, or epoll is unavailable
  /// (`STATECAST_EVENT_LOOP=poll` also asks for `nil`, to compare the two). Starting
  /// thread.
  static func make() -> EpollEventLoop? {
    if let choice = getenv("STATECAST_EVENT_LOOP"), String(cString: choice) == "poll" { return nil }
    guard access(pluginPath, R_OK) == 0,
      let library = dlopen("libev.so.4", RTLD_NOW | RTLD_GLOBAL),
      let newSymbol = dlsym(library, "ev_loop_new"), let runSymbol = dlsym(library, "ev_run"),
      let destroySymbol = dlsym(library, "ev_loop_destroy"), let backendSymbol = dlsym(library, "ev_backend"),
      let startSymbol = dlsym(library, "ev_timer_start"), let stopSymbol = dlsym(library, "ev_timer_stop")
    else { return nil }
    let loopNew = unsafeBitCast(newSymbol, to: LoopNew.self)
    let backend = unsafeBitCast(backendSymbol, to: Backend.self)
    let destroy = unsafeBitCast(destroySymbol, to: LoopDestroy.self)
    guard let loop = loopNew(epollBackend | noSignalMask) else { return nil }
    guard backend(loop) == epollBackend else {
      destroy(loop)
      return nil
    }
    return EpollEventLoop(
      loop: loop, run: unsafeBitCast(runSymbol, to: Run.self), destroy: destroy,
      timerStart: unsafeBitCast(startSymbol, to: TimerControl.self),
      timerStop: unsafeBitCast(stopSymbol, to: TimerControl.self))
  }

  /// Starts a repeating timer that calls `callback` with `data` every `interval` seconds.
  /// Starting thread, before the service thread runs the loop.
  ///
  /// Why: lws 4.1's libev glue re-arms its timer without stopping it first, which libev
  /// ignores while the timer is active, so a deadline earlier than the one already armed
  /// (a ping due in 1 s while a 30 s timeout is armed) is missed until some socket event
  /// happens. The transport's tick wakes lws at a steady pace so that its ping, idle and
  /// close timers run on time (within one tick).
  func startTick(every interval: Double, data: UnsafeMutableRawPointer, callback: TimerCallback) {
    tick.storeBytes(of: data, toByteOffset: 16, as: UnsafeMutableRawPointer.self)
    tick.storeBytes(of: callback, toByteOffset: 24, as: TimerCallback.self)
    tick.storeBytes(of: interval, toByteOffset: 32, as: Double.self)
    tick.storeBytes(of: interval, toByteOffset: 40, as: Double.self)
    timerStart(loop, tick)
    ticking = true
  }

  /// Stops the tick. Service thread, before `lws_context_destroy`.
  func stopTick() {
    guard ticking else { return }
    ticking = false
    timerStop(loop, tick)
  }

  /// Waits for the next events (sockets, lws' timers, a `lws_cancel_service` wake-up)
  /// and runs their callbacks. Service thread.
  func runOnce() {
    _ = run(loop, Self.runOnce)
  }

  /// Frees the loop. Service thread, after `lws_context_destroy`.
  func destroy() {
    guard !destroyed else { return }
    destroyed = true
    stopTick()
    loopDestroy(loop)
  }
}
