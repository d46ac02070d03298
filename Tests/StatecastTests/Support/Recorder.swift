import Synchronization

/// Collects values from concurrent code so that a test can read them afterwards.
final class Recorder<Value: Sendable>: Sendable {
  private let storage = Mutex<[Value]>([])

  func record(_ value: Value) {
    storage.withLock { $0.append(value) }
  }

  var values: [Value] { storage.withLock { $0 } }
}

/// A one-shot signal that async code can wait for; waiting does not react to
/// cancellation, which lets a test model work that ignores it.
final class Gate: Sendable {
  private let storage = Mutex<(isOpen: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))

  func open() {
    let waiters = storage.withLock { storage in
      storage.isOpen = true
      defer { storage.waiters = [] }
      return storage.waiters
    }
    for waiter in waiters { waiter.resume() }
  }

  func wait() async {
    await withCheckedContinuation { continuation in
      let isOpen = storage.withLock { storage in
        if !storage.isOpen { storage.waiters.append(continuation) }
        return storage.isOpen
      }
      if isOpen { continuation.resume() }
    }
  }
}

/// Waits until `count` parties have arrived; proves that they run concurrently, since
/// run one after another the first would wait forever.
actor Rendezvous {
  private let count: Int
  private var arrived = 0
  private var waiters: [CheckedContinuation<Void, Never>] = []

  init(count: Int) { self.count = count }

  func arrive() async {
    arrived += 1
    if arrived == count {
      for waiter in waiters { waiter.resume() }
      waiters = []
    } else {
      await withCheckedContinuation { waiters.append($0) }
    }
  }
}

/// An error for tests of error routing.
struct Failure: Error, Equatable {
  var reason = "failed"
}
