/// Keeps an observer registered with ``Store/observe(includingCurrent:_:)``; cancelling it,
/// or letting it go, unregisters the observer.
///
/// Cancellation takes effect immediately: once `cancel()` returns, the observer is not
/// called again.
///
/// ```swift
/// let observation = await store.observe { state in render(state) }
/// ...
/// observation.cancel()
/// ```
public final class StoreObservation: Sendable {
  private let flag: ObservationFlag

  init(flag: ObservationFlag) {
    self.flag = flag
  }

  /// Stops the observation.
  public func cancel() {
    flag.cancel()
  }

  /// Whether the observation has been cancelled.
  public var isCancelled: Bool { flag.isCancelled }

  deinit {
    flag.cancel()
  }
}
