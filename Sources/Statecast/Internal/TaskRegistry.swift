import Synchronization

/// Every task a store owns, so that it can cancel them by id, cancel them all, and wait
/// for them.
///
/// It sits behind a lock rather than on the store's actor so that a task can remove
/// itself when it ends without hopping onto the store, and so that the store's
/// `deinit` and the TestStore can reach it synchronously. Tasks are created under the
/// lock, so a task's own removal can never run before its insertion.
package final class TaskRegistry: Sendable {
  /// What a task is for: effects and middlewares end on their own; event sources run
  /// until the store closes.
  package enum Kind: Sendable {
    case effect
    case eventSource
  }

  private struct Entry {
    let task: Task<Void, Never>
    let kind: Kind
    let ids: [CancelID]
  }

  private struct Storage {
    var nextKey: UInt64 = 0
    var entries: [UInt64: Entry] = [:]
    var keysByID: [CancelID: Set<UInt64>] = [:]
    var effectCount = 0
    var idleWaiters: [UInt64: CheckedContinuation<Void, Never>] = [:]
    var isClosed = false
  }

  private let storage = Mutex(Storage())

  package init() {}

  /// Starts `operation` in a new task owned by the registry, registered under `ids`.
  ///
  /// A task spawned after ``closeAndCancelAll()`` starts already cancelled.
  package func spawn(
    _ kind: Kind,
    ids: [CancelID] = [],
    priority: TaskPriority? = nil,
    operation: @escaping @Sendable () async -> Void
  ) -> Task<Void, Never> {
    let (task, isClosed) = storage.withLock { storage in
      let key = storage.nextKey
      storage.nextKey += 1
      let task = Task(priority: priority) {
        await operation()
        self.remove(key)
      }
      storage.entries[key] = Entry(task: task, kind: kind, ids: ids)
      for id in ids { storage.keysByID[id, default: []].insert(key) }
      if kind == .effect { storage.effectCount += 1 }
      return (task, storage.isClosed)
    }
    if isClosed { task.cancel() }
    return task
  }

  /// Cancels every task registered under `id`; later tasks may reuse the id.
  package func cancel(id: CancelID) {
    let tasks = storage.withLock { storage in
      storage.keysByID.removeValue(forKey: id).map { keys in keys.compactMap { storage.entries[$0]?.task } }
    }
    // Cancellation handlers run synchronously inside `cancel()`: call it outside the lock.
    for task in tasks ?? [] { task.cancel() }
  }

  /// Whether effect or middleware tasks are still running (event sources not counted).
  package var hasEffectsInFlight: Bool {
    storage.withLock { $0.effectCount > 0 }
  }

  /// Cancels the running effect and middleware tasks, leaving event sources alone.
  package func cancelEffects() {
    let tasks = storage.withLock { storage in
      storage.entries.values.filter { $0.kind == .effect }.map(\.task)
    }
    for task in tasks { task.cancel() }
  }

  /// Marks the registry closed and cancels every task without waiting.
  package func cancelAll() {
    let tasks = storage.withLock { storage in
      storage.isClosed = true
      return storage.entries.values.map(\.task)
    }
    for task in tasks { task.cancel() }
  }

  /// Marks the registry closed, cancels every task and waits until all have ended.
  package func closeAndCancelAll() async {
    while true {
      let tasks = storage.withLock { storage in
        storage.isClosed = true
        return storage.entries.values.map(\.task)
      }
      if tasks.isEmpty { return }
      for task in tasks { task.cancel() }
      for task in tasks { await task.value }
    }
  }

  /// Waits until no effect or middleware task is running; returns early when the
  /// waiting task is cancelled.
  package func waitForEffects() async {
    let key = storage.withLock { storage in
      defer { storage.nextKey += 1 }
      return storage.nextKey
    }
    await withTaskCancellationHandler {
      await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        let isIdle = storage.withLock { storage in
          if storage.effectCount == 0 || Task.isCancelled { return true }
          storage.idleWaiters[key] = continuation
          return false
        }
        if isIdle { continuation.resume() }
      }
    } onCancel: {
      storage.withLock { $0.idleWaiters.removeValue(forKey: key) }?.resume()
    }
  }

  private func remove(_ key: UInt64) {
    let waiters = storage.withLock { storage -> [CheckedContinuation<Void, Never>] in
      guard let entry = storage.entries.removeValue(forKey: key) else { return [] }
      for id in entry.ids {
        storage.keysByID[id]?.remove(key)
        if storage.keysByID[id]?.isEmpty == true { storage.keysByID[id] = nil }
      }
      guard entry.kind == .effect else { return [] }
      storage.effectCount -= 1
      guard storage.effectCount == 0, !storage.idleWaiters.isEmpty else { return [] }
      defer { storage.idleWaiters = [:] }
      return Array(storage.idleWaiters.values)
    }
    for waiter in waiters { waiter.resume() }
  }
}
