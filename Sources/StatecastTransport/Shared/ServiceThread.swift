import CLibWebSockets
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The thread that runs one libwebsockets context's event loop, recorded so that
/// functions documented "service thread only" can check it in debug builds.
///
/// Why: only that thread may touch a connection (`wsi`) or the state confined to it;
/// a call from another thread is a data race that tests would catch only by luck. The
/// check is one `pthread_equal` under an uncontended lock, and `assert` compiles it out
/// of release builds. Until ``enter()`` is called the creating thread stands in for the
/// service thread (a context is set up, and unit tests drive the pieces, before any
/// loop runs), so every thread passes the check.
package final class ServiceThread: Sendable {
  private let thread = Locked<pthread_t?>(nil)
  /// The CPU-time clock of the thread that entered, if the system gave one.
  private let cpuClock = Locked<clockid_t?>(nil)

  package init() {}

  /// Records the calling thread as the service thread, named `name` where the system
  /// shows thread names (`top -H`, `perf`, debuggers; at most 15 bytes on Linux).
  /// Service thread, before its loop.
  package func enter(name: String) {
    let current = pthread_self()
    thread.withLock { $0 = current }
    statecast_name_current_thread(name)
    var clock = clockid_t()
    if pthread_getcpuclockid(current, &clock) == 0 {
      cpuClock.withLock { $0 = clock }
    }
  }

  /// The CPU time the service thread has used so far (`nil` before ``enter(name:)``):
  /// what the server's own work costs, apart from the wall clock's waiting. Any thread.
  package var cpuTime: Duration? {
    guard let clock = cpuClock.withLock({ $0 }) else { return nil }
    var time = timespec()
    guard clock_gettime(clock, &time) == 0 else { return nil }
    return .seconds(time.tv_sec) + .nanoseconds(time.tv_nsec)
  }

  /// Whether the caller is the service thread (or no loop has started yet). Any thread.
  package var isCurrent: Bool {
    thread.withLock { thread in
      guard let thread else { return true }
      return pthread_equal(thread, pthread_self()) != 0
    }
  }

  /// Whether a loop has started and the caller is its thread. Any thread.
  package var isCurrentAndRunning: Bool {
    thread.withLock { thread in
      guard let thread else { return false }
      return pthread_equal(thread, pthread_self()) != 0
    }
  }

  /// Traps in debug builds when called from another thread than the service thread.
  package func check(_ function: StaticString = #function, file: StaticString = #fileID, line: UInt = #line) {
    assert(isCurrent, "\(function) must run on the libwebsockets service thread", file: file, line: line)
  }
}
