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
  /// What an action started, when it started anything.
  enum Work: Sendable {
    /// The tasks of its effects and middlewares.
    case tasks([Task<Void, Never>])
    /// A durable store's send: the effects start only after the commit.
    case commit(CommitHandle)
  }

  /// `nil` on the store's fast path (no effect, no middleware, not durable): one word
  /// that is zero, so returning and dropping it costs no reference counting.
  let work: Work?

  init(_ tasks: [Task<Void, Never>] = []) {
    self.work = tasks.isEmpty ? nil : .tasks(tasks)
  }

  init(commit: CommitHandle) {
    self.work = .commit(commit)
  }

  /// The tasks of its effects and middlewares (none for a durable store's send).
  var tasks: [Task<Void, Never>] {
    if case .tasks(let tasks) = work { tasks } else { [] }
  }

  /// Set for a durable store's send: the effects start only after the commit.
  var commit: CommitHandle? {
    if case .commit(let commit) = work { commit } else { nil }
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
    switch work {
    case nil: return
    case .tasks(let tasks): for task in tasks { task.cancel() }
    case .commit(let commit): commit.cancel()
    }
  }

  /// Whether the action started no async work at all (the store's fast path).
  public var isEmpty: Bool { work == nil }

  /// Whether the work has been cancelled (`false` when there is none).
  public var isCancelled: Bool {
    switch work {
    case nil: false
    case .tasks(let tasks): tasks.allSatisfy(\.isCancelled)
    case .commit(let commit): commit.isCancelled
    }
  }

  func waitWithoutCancelling() async {
    switch work {
    case nil: return
    case .tasks(let tasks): for task in tasks { await task.value }
    case .commit(let commit): await commit.work().waitWithoutCancelling()
    }
  }
}
