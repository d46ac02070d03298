extension StoreTask {
  /// Waits until the action's change is durable, or throws why it is not.
  ///
  /// A durable store (one created with a `commit` function) runs the reducer at once,
  /// but the change counts only once the commit function has returned: then the
  /// observers have seen it and this returns, before the action's effects start.
  /// If the commit fails, the state is back at the last committed value, no observer
  /// saw the change, no effect started, and this throws. For a store that is not
  /// durable it returns at once: the change is already in place.
  ///
  /// Cancelling the waiting task does not stop the wait: a commit in flight ends by
  /// itself, and the answer is worth having.
  ///
  /// ```swift
  /// let task = await store.send(.client(action))
  /// do { try await task.committed(); reply(.ok) } catch { reply(.unavailable) }
  /// ```
  public func committed() async throws(CommitError) {
    guard let commit else { return }
    if let error = await commit.outcome() { throw error }
  }
}
