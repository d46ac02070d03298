import Synchronization

/// The outcome of one `send` to a durable store, shared by the store (which settles
/// it) and the ``StoreTask`` the sender holds (which waits on it).
///
/// It goes `pending` → `committed` → `started` (the effects' work is known), or
/// `pending` → `failed`. Waiters are resumed outside the lock.
final class CommitHandle: Sendable {
  private enum Phase {
    case pending
    case committed
    case started(StoreTask)
    case failed(CommitError)
  }

  private struct Storage {
    var phase = Phase.pending
    var isCancelled = false
    var outcomeWaiters: [CheckedContinuation<CommitError?, Never>] = []
    var workWaiters: [CheckedContinuation<StoreTask, Never>] = []
  }

  private let storage = Mutex(Storage())

  /// The change is durable; the effects are not started yet.
  func markCommitted() {
    let waiters = storage.withLock { storage in
      storage.phase = .committed
      defer { storage.outcomeWaiters = [] }
      return storage.outcomeWaiters
    }
    for waiter in waiters { waiter.resume(returning: nil) }
  }

  /// The effects have started; cancels them at once if the sender already cancelled.
  func markStarted(_ work: StoreTask) {
    let (outcomeWaiters, workWaiters, isCancelled) = storage.withLock { storage in
      storage.phase = .started(work)
      defer { (storage.outcomeWaiters, storage.workWaiters) = ([], []) }
      return (storage.outcomeWaiters, storage.workWaiters, storage.isCancelled)
    }
    if isCancelled { work.cancel() }
    for waiter in outcomeWaiters { waiter.resume(returning: nil) }
    for waiter in workWaiters { waiter.resume(returning: work) }
  }

  func fail(_ error: CommitError) {
    let (outcomeWaiters, workWaiters) = storage.withLock { storage in
      storage.phase = .failed(error)
      defer { (storage.outcomeWaiters, storage.workWaiters) = ([], []) }
      return (storage.outcomeWaiters, storage.workWaiters)
    }
    for waiter in outcomeWaiters { waiter.resume(returning: error) }
    for waiter in workWaiters { waiter.resume(returning: StoreTask()) }
  }

  /// Waits until the commit is settled: `nil` when durable, else why not.
  func outcome() async -> CommitError? {
    await withCheckedContinuation { continuation in
      let settled: CommitError?? = storage.withLock { storage in
        switch storage.phase {
        case .pending:
          storage.outcomeWaiters.append(continuation)
          return .none
        case .committed, .started: return .some(nil)
        case .failed(let error): return .some(error)
        }
      }
      if let settled { continuation.resume(returning: settled) }
    }
  }

  /// Waits until the effects have started (empty if the commit failed) and returns them.
  func work() async -> StoreTask {
    await withCheckedContinuation { continuation in
      let settled: StoreTask? = storage.withLock { storage in
        switch storage.phase {
        case .pending, .committed:
          storage.workWaiters.append(continuation)
          return nil
        case .started(let work): return work
        case .failed: return StoreTask()
        }
      }
      if let settled { continuation.resume(returning: settled) }
    }
  }

  func cancel() {
    let work: StoreTask? = storage.withLock { storage in
      storage.isCancelled = true
      if case .started(let work) = storage.phase { return work }
      return nil
    }
    work?.cancel()
  }

  var isCancelled: Bool { storage.withLock { $0.isCancelled } }
}
