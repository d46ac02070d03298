import Synchronization

/// Every action the TestStore's reducer ran, with the state before and after, split
/// into the test's own actions and received ones; a test waits here for received
/// actions.
///
/// The reducer records from the store's executor while the test reads from its own
/// task, hence the lock.
final class ActionLog<State: Sendable, Action: Sendable>: Sendable {
  struct Entry: Sendable {
    let action: Action
    let before: State
    let after: State
  }

  private struct Storage {
    var sent: [Entry] = []
    var received: [Entry] = []
    var waiters: [UInt64: CheckedContinuation<Void, Never>] = [:]
    var nextKey: UInt64 = 0
  }

  private let storage = Mutex(Storage())

  func record(_ entry: Entry, origin: TestAction<Action>.Origin) {
    let waiters = storage.withLock { storage -> [CheckedContinuation<Void, Never>] in
      switch origin {
      case .test:
        storage.sent.append(entry)
        return []
      case .received:
        storage.received.append(entry)
        defer { storage.waiters = [:] }
        return Array(storage.waiters.values)
      }
    }
    for waiter in waiters { waiter.resume() }
  }

  /// The oldest of the test's own actions not yet taken.
  func takeSent() -> Entry? {
    storage.withLock { $0.sent.isEmpty ? nil : $0.sent.removeFirst() }
  }

  /// The oldest received action not yet taken.
  func takeReceived() -> Entry? {
    storage.withLock { $0.received.isEmpty ? nil : $0.received.removeFirst() }
  }

  /// Takes every received action not yet taken.
  func takeAllReceived() -> [Entry] {
    storage.withLock { storage in
      defer { storage.received.removeAll() }
      return storage.received
    }
  }

  /// The received actions not yet taken, oldest first.
  var received: [Entry] {
    storage.withLock { $0.received }
  }

  /// Waits until a received action is available; returns early when cancelled.
  func waitForReceived() async {
    let key = storage.withLock { storage in
      defer { storage.nextKey += 1 }
      return storage.nextKey
    }
    await withTaskCancellationHandler {
      await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        let isReady = storage.withLock { storage in
          if !storage.received.isEmpty || Task.isCancelled { return true }
          storage.waiters[key] = continuation
          return false
        }
        if isReady { continuation.resume() }
      }
    } onCancel: {
      storage.withLock { $0.waiters.removeValue(forKey: key) }?.resume()
    }
  }
}
