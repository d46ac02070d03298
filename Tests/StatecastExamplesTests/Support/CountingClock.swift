import Clocks
import Synchronization

/// A `TestClock` that counts the sleeps started on it, so that a test can wait until
/// an effect is really asleep before advancing time, instead of hoping that a few
/// yields were enough on a busy machine.
///
/// ```swift
/// await store.send(.client(.start)) { ... }
/// await clock.advance(by: .seconds(1), afterSleeps: 1)
/// ```
final class CountingClock: Clock, Sendable {
  typealias Instant = TestClock<Duration>.Instant

  private struct Waiter {
    let count: Int
    let continuation: CheckedContinuation<Void, Never>
  }

  private let base = TestClock()
  private let state = Mutex<(sleeps: Int, waiters: [Waiter])>((0, []))

  var now: Instant { base.now }
  var minimumResolution: Duration { base.minimumResolution }

  /// How many sleeps have started so far.
  var sleepsStarted: Int { state.withLock { $0.sleeps } }

  func sleep(until deadline: Instant, tolerance: Duration?) async throws {
    let ready = state.withLock { state in
      state.sleeps += 1
      let count = state.sleeps
      let ready = state.waiters.filter { $0.count <= count }
      state.waiters.removeAll { $0.count <= count }
      return ready
    }
    for waiter in ready { waiter.continuation.resume() }
    try await base.sleep(until: deadline, tolerance: tolerance)
  }

  /// Waits until at least `count` sleeps have started in total.
  func waitForSleeps(_ count: Int) async {
    await withCheckedContinuation { continuation in
      let isReady = state.withLock { state in
        if state.sleeps >= count { return true }
        state.waiters.append(Waiter(count: count, continuation: continuation))
        return false
      }
      if isReady { continuation.resume() }
    }
  }

  /// Advances the time, waking the sleeps it passes.
  func advance(by duration: Duration) async {
    await base.advance(by: duration)
  }

  /// Waits until `sleeps` sleeps have started in total, then advances the time.
  func advance(by duration: Duration, afterSleeps sleeps: Int) async {
    await waitForSleeps(sleeps)
    await base.advance(by: duration)
  }
}
