import Foundation

/// One libwebsockets context serving one port: static files, `/healthz`, app pages, the
/// WebSocket endpoint `/ws` (subprotocol `statecast.v1`), optionally `/echo`, over plain
/// TCP or TLS.
///
/// Why it exists: the protocol layer above deals in whole text messages and shared
/// frames, never in sockets. Threading follows libwebsockets' `minimal-ws-server-threads`:
/// one service thread runs `lws_service` and is the only thread that touches a
/// connection; other threads queue frames under a lock and wake it with
/// `lws_cancel_service`; it writes in `SERVER_WRITEABLE`. App code runs on that thread
/// only in the ``TransportHandler``'s short calls and in tasks that prefer ``executor``
/// (see ``ServiceExecutor``).
///
///     let transport = WebSocketTransport(configuration: configuration, handler: server)
///     let port = try transport.start()
///     transport.send(OutboundFrame(text: "{\"op\":\"hello\"}"), to: id)   // any thread
///     await transport.shutdown()                                       // 1001 to everyone
package final class WebSocketTransport: Sendable {

  /// The configuration the transport was created with.
  package let configuration: TransportConfiguration

  let table: ConnectionTable
  /// The state only the service thread touches.
  private let serviceState: ServiceThreadBound<ServiceSide>
  /// The thread that runs the event loop; service-thread-only code checks it in debug builds.
  package let serviceThread: ServiceThread
  /// The service thread as a task executor: where the server runs each socket's messages.
  package let executor: ServiceExecutor
  let originPolicy: OriginPolicy
  let hostPolicy: HostPolicy
  let counters = TransportCounters()
  /// The page requests being rendered (``TransportConfiguration/pageRoute``).
  let pages: PendingPages
  /// App page prefixes, longest first, each with its file's absolute path.
  let appPages: [(prefix: String, path: String)]
  private let publicDirectory: String?
  /// What the public directory refuses to serve (dotfiles, links out of it).
  let publicFileRule: PublicFileRule?

  private enum Phase { case idle, running, stopping, stopped }
  private struct Lifecycle {
    var phase = Phase.idle
    var boundPort: Int?
    var stopWaiters: [CheckedContinuation<Void, Never>] = []
    /// Start completed, not draining.
    var serving = false
    /// ``beginDraining()`` or ``shutdown(gracePeriod:code:reason:)`` was called.
    var draining = false
    /// ``holdUntilReady()`` was called, ``markReady()`` not yet.
    var starting = false
  }
  private let lifecycle = Locked(Lifecycle())

  /// The state only the service thread touches. Service thread.
  var service: ServiceSide { serviceState.value }

  /// Creates a transport; nothing listens until ``start()``.
  ///
  /// - Parameters:
  ///   - configuration: where to listen, what to serve, and the limits.
  ///   - handler: told about `/ws` connections on the service thread; kept until the
  ///     transport has stopped.
  ///   - executor: runs the jobs of tasks that prefer it on the service thread once the
  ///     transport has started (the handler's tasks may be made with it before).
  package init(
    configuration: TransportConfiguration, handler: any TransportHandler,
    executor: ServiceExecutor = ServiceExecutor()
  ) {
    self.configuration = configuration
    let serviceThread = executor.serviceThread
    self.serviceThread = serviceThread
    self.executor = executor
    table = ConnectionTable(
      highWatermark: configuration.outboundHighWatermark, hardLimit: configuration.outboundHardLimit,
      serviceThread: serviceThread)
    serviceState = ServiceThreadBound(
      ServiceSide(handler: handler, serviceThread: serviceThread), serviceThread: serviceThread)
    pages = PendingPages(serviceThread: serviceThread)
    originPolicy = OriginPolicy(allowedOrigins: configuration.allowedOrigins, tls: configuration.tls != nil)
    hostPolicy = HostPolicy(
      allowedHosts: configuration.allowedHosts,
      listensOnLoopbackOnly: HostPolicy.bindsLoopbackOnly(configuration.host))
    let directory = configuration.publicDirectory.map {
      URL(fileURLWithPath: $0).standardizedFileURL.resolvingSymlinksInPath().path
    }
    publicDirectory = directory
    publicFileRule = directory.map { PublicFileRule(root: $0) }
    appPages = configuration.appPages
      .map { prefix, file in
        let trimmed = prefix.count > 1 && prefix.hasSuffix("/") ? String(prefix.dropLast()) : prefix
        return (trimmed, directory.map { "\($0)/\(file)" } ?? file)
      }
      .sorted { $0.0.count > $1.0.count }
  }

  /// Starts listening and serving on a new service thread; returns the bound port (the
  /// chosen one when the configuration asks for port 0). Calling thread; once.
  ///
  /// - Throws: ``TransportError`` when the configuration is invalid, the port cannot be
  ///   bound, or the TLS files cannot be read.
  @discardableResult
  package func start() throws -> Int {
    try lifecycle.withLock {
      guard $0.phase == .idle else { throw TransportError.alreadyStarted }
      $0.phase = .running
    }
    do {
      let configuration = try configuration.validated()
      if let publicDirectory {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: publicDirectory, isDirectory: &isDirectory),
          isDirectory.boolValue
        else {
          throw TransportError.invalidConfiguration("public directory \(publicDirectory) does not exist")
        }
      }
      LibWebSocketsLog.configure()
      let descriptors = FileDescriptorLimit.raise(toAtLeast: configuration.fileDescriptorLimit)
      service.descriptorGuard = DescriptorGuard(limit: descriptors)
      let context = try ServerContext(
        configuration: configuration, publicDirectory: publicDirectory, callbacks: self)
      let waker = ContextWaker(context.context)
      table.attach(waker)
      let port = context.port
      lifecycle.withLock { $0.boundPort = port }
      let handOver = ServiceThreadBound(context, serviceThread: serviceThread)
      // From here on, jobs queue for the service thread (they run once its loop turns).
      executor.begin(wake: { waker.wake() })
      let thread = Thread { [self] in
        runServiceLoop(handOver)
      }
      thread.name = "statecast-lws"
      thread.start()
      lifecycle.withLock { $0.serving = !$0.draining }
      return port
    } catch {
      lifecycle.withLock { $0.phase = .idle }
      throw error
    }
  }

  /// The port being served, once ``start()`` has succeeded.
  package var port: Int? {
    lifecycle.withLock { $0.boundPort }
  }

  /// Whether `GET /readyz` answers 200: the transport has started and is not draining.
  /// Any thread.
  package var isReady: Bool {
    lifecycle.withLock { $0.serving && !$0.draining && !$0.starting }
  }

  /// Whether the transport was told to wait (``holdUntilReady()``) and is not ready yet:
  /// it answers HTTP, but `/readyz` answers 503 and WebSocket upgrades are refused with
  /// HTTP 503. Any thread.
  package var isStarting: Bool {
    lifecycle.withLock { $0.starting }
  }

  /// Makes the transport serve HTTP (`/healthz` answers 200: alive) but not take
  /// WebSockets or report ready until ``markReady()``: for a server whose storage is not
  /// reachable yet, so that an orchestrator neither kills it nor routes clients to it.
  /// Any thread.
  package func holdUntilReady() {
    lifecycle.withLock { $0.starting = true }
  }

  /// Ends ``holdUntilReady()``: `/readyz` answers 200 and upgrades are accepted. Any
  /// thread.
  package func markReady() {
    lifecycle.withLock { $0.starting = false }
  }

  /// Whether new WebSocket upgrades are refused with 503 (``beginDraining()`` or
  /// ``shutdown(gracePeriod:code:reason:)`` was called). Any thread.
  package var isDraining: Bool {
    lifecycle.withLock { $0.draining }
  }

  /// Starts draining: `GET /readyz` answers 503 from now on (so a load balancer stops
  /// sending new clients) and new WebSocket upgrades are refused with HTTP 503; open
  /// connections are left alone until ``shutdown(gracePeriod:code:reason:)``. Any thread.
  package func beginDraining() {
    lifecycle.withLock {
      $0.draining = true
      $0.serving = false
    }
  }

  /// What the transport has sent and refused since it started. Any thread.
  package var statistics: TransportStatistics {
    counters.snapshot
  }

  /// The number of open WebSocket connections (both endpoints). Any thread.
  package var connectionCount: Int {
    table.connectionCount
  }

  /// Queues `frame` for one connection. Any thread; returns at once.
  ///
  /// Frames of one connection are written in the order they were sent. The answer says
  /// whether the connection is now congested (stop queueing what a snapshot can replace
  /// and wait for ``TransportHandler/transportDrained(_:)``) or closed (the frame was
  /// dropped). A frame that would take a non-empty backlog above
  /// ``TransportConfiguration/outboundHardLimit`` closes the connection with 1008.
  @discardableResult
  package func send(_ frame: OutboundFrame, to id: ConnectionID) -> SendOutcome {
    table.enqueue(frame, to: id)
  }

  /// Queues one shared `frame` for every connection in `ids`: the payload is not copied
  /// per connection. Any thread; one lock acquisition for the whole list.
  @discardableResult
  package func send(_ frame: OutboundFrame, to ids: some Sequence<ConnectionID>) -> BroadcastOutcome {
    table.enqueue(frame, to: ids)
  }

  /// Closes a connection with `code` and `reason` once the frames already queued for it
  /// are written; later sends answer `.closed`. Any thread.
  ///
  /// - Parameters:
  ///   - code: a close code a server may send (1000-1003, 1007-1014,
  ///     3000-4999); anything else becomes 1011.
  ///   - reason: at most 123 bytes of UTF-8 are sent.
  package func close(_ id: ConnectionID, code: UInt16 = 1000, reason: String = "") {
    table.requestClose(id, code: CloseFrame.sendableCode(code), reason: reason)
  }

  /// Stops gracefully: refuses new WebSocket upgrades (503), closes every WebSocket with
  /// `code` (1001 "going away" by default; 1012 when the server restarts) after its
  /// queued frames, waits up to `gracePeriod` for them to close, then stops the service
  /// loop and destroys the context on the service thread. Any thread or task (a signal
  /// handler's task included); returns when the service thread has finished. Calling it
  /// again, or on a transport that never started, returns once it is stopped.
  package func shutdown(
    gracePeriod: Duration = .seconds(5), code: UInt16 = 1001, reason: String = "server shutting down"
  ) async {
    let beginsShutdown: Bool = lifecycle.withLock {
      $0.draining = true
      $0.serving = false
      switch $0.phase {
      case .idle:
        $0.phase = .stopped
        return false
      case .running:
        $0.phase = .stopping
        return true
      case .stopping, .stopped:
        return false
      }
    }
    if beginsShutdown {
      table.beginShutdown(code: CloseFrame.sendableCode(code), reason: reason)
    }
    await withTaskGroup(of: Void.self) { group in
      group.addTask { await self.waitUntilStopped() }
      group.addTask {
        try? await Task.sleep(for: gracePeriod)
        if !Task.isCancelled { self.table.requestStop() }
      }
      await group.next()
      group.cancelAll()
    }
    // Past the grace period the loop was told to stop: it does within one turn, and this
    // returns only then, as documented (a second call finds it stopped).
    await waitUntilStopped()
  }

  /// Returns once the service thread has destroyed the context. Any task.
  private func waitUntilStopped() async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let stopped: Bool = lifecycle.withLock {
        if $0.phase == .stopped { return true }
        $0.stopWaiters.append(continuation)
        return false
      }
      if stopped { continuation.resume() }
    }
  }

  /// The service thread's whole life: serve until asked to stop (or until a draining
  /// shutdown has closed every connection), then destroy the context here, on the thread
  /// that ran it. Service thread.
  private func runServiceLoop(_ handOver: ServiceThreadBound<ServerContext>) {
    serviceThread.enter(name: "statecast-lws")
    let context = handOver.value
    while true {
      let state = table.loopState()
      if state.stop { break }
      if state.draining {
        // New upgrades are refused with 503 from now on. (lws 4.1's
        // `lws_context_deprecate` would close the listening socket, but it touches the
        // freed listener afterwards under the poll event loop.)
        service.listening = false
        if state.openCount == 0 { break }
      }
      if context.serviceOnce() < 0 { break }
      checkLiveness()
      // Jobs the turn's callbacks left (a socket's first message task, a closed
      // socket's last one), and the frames they queued.
      executor.runJobs()
      wakeConnections()
    }
    executor.end()
    table.detach()
    service.destroying = true
    context.destroy()
    service.handler = nil
    let waiters: [CheckedContinuation<Void, Never>] = lifecycle.withLock { lifecycle in
      lifecycle.phase = .stopped
      defer { lifecycle.stopWaiters = [] }
      return lifecycle.stopWaiters
    }
    for waiter in waiters { waiter.resume() }
  }
}
