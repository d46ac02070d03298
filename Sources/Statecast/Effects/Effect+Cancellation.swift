extension Effect {
  /// Makes this effect's async work cancellable with ``Effect/cancel(id:)``.
  ///
  /// With `cancelInFlight`, work still running under the same id is cancelled before
  /// this one starts, so that only the latest request is alive (a search field, a
  /// "compute" button tapped twice). Ids are scoped to one store.
  ///
  /// ```swift
  /// enum RequestID { case nthPrime }
  /// return .run { send in ... }.cancellable(id: RequestID.nthPrime, cancelInFlight: true)
  /// ```
  public func cancellable(id: some Hashable & Sendable, cancelInFlight: Bool = false) -> Self {
    Self(operation: .cancellable(id: CancelID(id), cancelInFlight: cancelInFlight, self))
  }

  /// An effect that cancels the async work started under `id` and still running.
  ///
  /// Cancelled work can no longer send actions, even if it ignores cancellation.
  public static func cancel(id: some Hashable & Sendable) -> Self {
    Self(operation: .cancel(id: CancelID(id)))
  }
}
