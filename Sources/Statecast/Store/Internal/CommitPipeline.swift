/// The bookkeeping of a durable store, kept on the store's actor: the working state
/// that reducers run on, the reduced actions waiting for their commit, and whether a
/// commit is in flight.
///
/// The store's `state` is the committed state; `working` runs ahead of it by every
/// action reduced since. A failed commit sets `working` back to `state`.
struct CommitPipeline<State: Sendable, Action: Sendable> {
  /// One reducer run: the action, the state it produced and the effect it returned.
  struct Step {
    let action: Action
    let state: State
    let effect: Effect<Action>
  }

  /// The reducer runs of one `send` (the action and its `.send` follow-ups), and how
  /// its sender hears the outcome.
  struct Entry {
    let steps: [Step]
    let handle: CommitHandle
    /// Actions fed back by effects and event sources have nobody to answer: a
    /// failure goes to the store's `onError`.
    let reportsFailureToStore: Bool
    /// The sender's idempotency key, journaled with the commit.
    let idempotencyKey: String?
  }

  let commit: @Sendable (Commit<State>) async throws -> Void
  var working: State
  var pending: [Entry] = []
  var isCommitting = false
  var idleWaiters: [CheckedContinuation<Void, Never>] = []

  init(commit: @escaping @Sendable (Commit<State>) async throws -> Void, initialState: State) {
    self.commit = commit
    self.working = initialState
  }

  /// Takes every pending entry for the next commit.
  mutating func takeBatch() -> [Entry] {
    defer { pending = [] }
    return pending
  }

  /// Marks the pipeline idle and returns the tasks waiting for that.
  mutating func becomeIdle() -> [CheckedContinuation<Void, Never>] {
    isCommitting = false
    defer { idleWaiters = [] }
    return idleWaiters
  }
}
