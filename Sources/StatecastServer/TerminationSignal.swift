import Dispatch
import Foundation

/// Waits for SIGINT or SIGTERM, so that a server can shut down gracefully (close
/// sockets with 1001, cancel effects, exit 0) when Ctrl-C is pressed or a container
/// is stopped.
public enum TerminationSignal {
  /// Returns when the process receives SIGINT or SIGTERM. The signals' default action
  /// (ending the process at once) is switched off from the first call on.
  public static func wait() async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let resumed = ResumeOnce(continuation)
      for signalNumber in [SIGINT, SIGTERM] {
        signal(signalNumber, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
        source.setEventHandler { resumed.resume() }
        source.resume()
        resumed.keep(source)
      }
    }
  }

  private final class ResumeOnce: @unchecked Sendable {
    private let lock = NSLock()
    private var continuation: CheckedContinuation<Void, Never>?
    /// The signal sources, kept alive by the handlers that capture this object.
    private var sources: [any DispatchSourceSignal] = []
    init(_ continuation: CheckedContinuation<Void, Never>) { self.continuation = continuation }
    func keep(_ source: any DispatchSourceSignal) {
      lock.withLock { sources.append(source) }
    }
    func resume() {
      lock.withLock {
        continuation?.resume()
        continuation = nil
      }
    }
  }
}
