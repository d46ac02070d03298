import Synchronization

/// The cancelled bit shared by a ``StoreObservation`` and the store's observer list, so
/// that cancelling takes effect at once, from any thread, without a hop to the store.
final class ObservationFlag: Sendable {
  private let cancelled = Atomic<Bool>(false)

  var isCancelled: Bool { cancelled.load(ordering: .relaxed) }

  func cancel() { cancelled.store(true, ordering: .relaxed) }
}
