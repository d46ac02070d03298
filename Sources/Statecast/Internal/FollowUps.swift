import Synchronization

/// The store tasks of the actions that one piece of async work sent back, so that the
/// work's own task ends only after theirs: this is what makes
/// ``StoreTask/finish()`` wait transitively.
final class FollowUps: Sendable {
  private let tasks = Mutex<[StoreTask]>([])

  func append(_ task: StoreTask) {
    guard !task.isEmpty else { return }
    tasks.withLock { $0.append(task) }
  }

  /// Waits for every follow-up task, including ones appended while waiting. Does not
  /// cancel them if the waiting task is cancelled: closing the store does that.
  func finish() async {
    while true {
      let batch = tasks.withLock { tasks in
        defer { tasks.removeAll() }
        return tasks
      }
      if batch.isEmpty { return }
      for task in batch { await task.waitWithoutCancelling() }
    }
  }
}
