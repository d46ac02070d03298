import Synchronization

/// Becomes ready once, and wakes every task waiting for it.
final class ReadySignal: Sendable {
  private struct State {
    var isReady = false
    var waiters: [CheckedContinuation<Void, Never>] = []
  }

  private let state = Mutex(State())

  func signal() {
    let waiters = state.withLock { state in
      guard !state.isReady else { return [CheckedContinuation<Void, Never>]() }
      state.isReady = true
      defer { state.waiters = [] }
      return state.waiters
    }
    for waiter in waiters { waiter.resume() }
  }

  func wait() async {
    await withCheckedContinuation { continuation in
      let isReady = state.withLock { state in
        if !state.isReady { state.waiters.append(continuation) }
        return state.isReady
      }
      if isReady { continuation.resume() }
    }
  }
}
