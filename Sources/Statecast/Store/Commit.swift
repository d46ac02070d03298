/// One change of a durable store, handed to its commit function: the last committed
/// state and the state to make durable.
///
/// A durable store runs reducers on the state value at once, then calls its commit
/// function with every change in the order the changes were made, one call at a time.
/// Actions that arrive while a commit is in flight are reduced on top of it and handed
/// over together in the next call, so `state` may be the result of several actions
/// (``actionCount``). Only when the function returns does anyone see the change.
///
/// ```swift
/// let store = Store(initialState: room.state, reducer: todos, commit: { commit in
///   try await journal.commit(commit)   // throws: the change is undone, nobody saw it
/// })
/// ```
public struct Commit<State: Sendable>: Sendable {
  /// The last committed state, which the store returns to if the commit fails.
  public let previous: State

  /// The state to make durable.
  public let state: State

  /// How many reducer runs (sent actions and their `.send` follow-ups) lead from
  /// ``previous`` to ``state``; at least one.
  public let actionCount: Int

  /// The idempotency keys of the sent actions this commit makes durable (see
  /// ``Store/send(_:idempotencyKey:)``), in the order they were sent. A journal stores
  /// them with the change, so whoever opens the store next knows those actions are
  /// applied, even if their senders never heard back.
  public let idempotencyKeys: [String]

  /// A commit from `previous` to `state`, made by `actionCount` actions.
  public init(previous: State, state: State, actionCount: Int, idempotencyKeys: [String] = []) {
    self.previous = previous
    self.state = state
    self.actionCount = actionCount
    self.idempotencyKeys = idempotencyKeys
  }
}

/// Why an action sent to a durable store did not take effect.
///
/// Whatever the case, the store's state is the last committed one: no observer saw the
/// action's change and none of its effects started. A server answers `unavailable`.
///
/// ```swift
/// do {
///   try await store.send(.addTapped(title)).committed()
///   reply(.ok)
/// } catch {
///   reply(.unavailable(error.description))
/// }
/// ```
public enum CommitError: Error, Sendable, CustomStringConvertible {
  /// The commit function threw: the action's change, or one it was reduced on top of,
  /// could not be stored. Holds the function's error.
  case failed(any Error)

  /// The store was closed before the action was sent; it was not reduced.
  case storeClosed

  /// What went wrong, for logs and replies.
  public var description: String {
    switch self {
    case .failed(let error): "the change could not be committed: \(error)"
    case .storeClosed: "the store is closed"
    }
  }
}
