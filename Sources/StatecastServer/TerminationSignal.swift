import Foundation

/// SIGINT and SIGTERM, caught so that a server can shut down gracefully (close sockets
/// with 1001, cancel effects, exit 0) when Ctrl-C is pressed or a container is stopped.
///
/// Create it before the server says it is listening: from then on either signal is
/// caught by a handler that only writes the signal's number to a pipe (the one thing a
/// signal handler may safely do, whichever thread it interrupts), and ``wait()`` reads
/// that pipe on a thread of its own. A signal that arrives before anyone waits stays in
/// the pipe, so none is lost.
///
/// ```swift
/// let termination = TerminationSignal()
/// try server.start()
/// await termination.wait()
/// await server.shutdown()
/// ```
public struct TerminationSignal: Sendable {
  public init() {
    SignalPipe.install()
  }

  /// Returns the number of the first SIGINT or SIGTERM received.
  @discardableResult
  public func wait() async -> Int32 {
    await withCheckedContinuation { continuation in
      Thread.detachNewThread {
        var received: UInt8 = 0
        while read(SignalPipe.readEnd, &received, 1) != 1 {
          // Interrupted by a signal: read again. Any other failure cannot be waited out.
          guard errno == EINTR else { return continuation.resume(returning: SIGTERM) }
        }
        continuation.resume(returning: Int32(received))
      }
    }
  }
}

/// The pipe between the signal handler and ``TerminationSignal/wait()``.
private enum SignalPipe {
  // Written once, under `installLock`, before the handler is installed; only read after.
  nonisolated(unsafe) static var readEnd: Int32 = -1
  nonisolated(unsafe) static var writeEnd: Int32 = -1
  private static let installLock = NSLock()

  static func install() {
    installLock.withLock {
      guard writeEnd < 0 else { return }
      var ends: [Int32] = [-1, -1]
      guard pipe(&ends) == 0 else { fatalError("cannot create the signal pipe: errno \(errno)") }
      (readEnd, writeEnd) = (ends[0], ends[1])
      var action = sigaction()
      action.__sigaction_handler.sa_handler = terminationSignalHandler
      sigemptyset(&action.sa_mask)
      action.sa_flags = SA_RESTART
      sigaction(SIGINT, &action, nil)
      sigaction(SIGTERM, &action, nil)
    }
  }
}

/// Runs inside the signal handler: async-signal-safe calls only.
private func terminationSignalHandler(_ signal: Int32) {
  var byte = UInt8(truncatingIfNeeded: signal)
  _ = write(SignalPipe.writeEnd, &byte, 1)
}
