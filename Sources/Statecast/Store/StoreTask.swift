/// The work one `send` started: effects and middlewares of the action, and of every
/// action they send back in turn.
///
/// It lets a caller wait until everything an action caused has settled (a request
/// handler that answers only once the save is done), or cancel it.
///
/// ```swift
/// await store.send(.saveTapped).finish()
/// ```
public struct StoreTask: Sendable {
  let tasks: [Task<Void, Never>]

  init(_ tasks: [Task<Void, Never>] = []) {
    self.tasks = tasks
  }

  /// Waits until every effect and middleware this action started has finished,
  /// transitively (the work of actions they sent back included).
  ///
  /// Cancelling the waiting task cancels the work as well.
  public func finish() async {
    guard !tasks.isEmpty else { return }
    await withTaskCancellationHandler {
      await waitWithoutCancelling()
    } onCancel: {
      cancel()
    }
  }

  /// Cancels the work this action started; it can no longer send actions.
  public func cancel() {
    for task in tasks { task.cancel() }
  }

  /// Whether the action started no async work at all (the store's fast path).
  public var isEmpty: Bool { tasks.isEmpty }

  /// Whether the work has been cancelled (`false` when there is none).
  public var isCancelled: Bool { !tasks.isEmpty && tasks.allSatisfy(\.isCancelled) }

  func waitWithoutCancelling() async {
    for task in tasks { await task.value }
  }
}
