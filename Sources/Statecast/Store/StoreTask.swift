/// The work one `send` started: effects and middlewares of the action, and of every
/// action they send back in turn.
///
/// It lets a caller wait until everything an action caused has settled (a request
/// handler that answers only once the save is done), or cancel it. For a durable
/// store it also tells whether the change was committed: see ``committed()``.
///
/// ```swift
/// await store.send(.saveTapped).finish()
/// ```
public struct StoreTask: Sendable {
  let tasks: [Task<Void, Never>]
  /// Set for a durable store's send: the effects start only after the commit.
  let commit: CommitHandle?

  init(_ tasks: [Task<Void, Never>] = []) {
    self.tasks = tasks
    self.commit = nil
  }

  init(commit: CommitHandle) {
    self.tasks = []
    self.commit = commit
  }

  /// Waits until every effect and middleware this action started has finished,
  /// transitively (the work of actions they sent back included). For a durable
  /// store, that is after the commit; a failed commit started no work.
  ///
  /// Cancelling the waiting task cancels the work as well.
  public func finish() async {
    guard !isEmpty else { return }
    await withTaskCancellationHandler {
      await waitWithoutCancelling()
    } onCancel: {
      cancel()
    }
  }

  /// Cancels the work this action started; it can no longer send actions. For a
  /// durable store whose commit is still in flight, the work is cancelled as it starts.
  public func cancel() {
    for task in tasks { task.cancel() }
    commit?.cancel()
  }

  /// Whether the action started no async work at all (the store's fast path).
  public var isEmpty: Bool { tasks.isEmpty && commit == nil }

  /// Whether the work has been cancelled (`false` when there is none).
  public var isCancelled: Bool {
    if let commit { return commit.isCancelled }
    return !tasks.isEmpty && tasks.allSatisfy(\.isCancelled)
  }

  func waitWithoutCancelling() async {
    for task in tasks { await task.value }
    if let commit { await commit.work().waitWithoutCancelling() }
  }
}
