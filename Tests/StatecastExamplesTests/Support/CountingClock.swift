import Clocks
import Synchronization
import Testing

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
    let id: Int
    let count: Int
    let continuation: CheckedContinuation<Bool, Never>
  }

  private struct Counts {
    var sleeps = 0
    var nextWaiter = 0
    var waiters: [Waiter] = []
  }

  private let base = TestClock()
  private let counts = Mutex(Counts())

  var now: Instant { base.now }
  var minimumResolution: Duration { base.minimumResolution }

  /// How many sleeps have started so far.
  var sleepsStarted: Int { counts.withLock { $0.sleeps } }

  func sleep(until deadline: Instant, tolerance: Duration?) async throws {
    let ready = counts.withLock { counts in
      counts.sleeps += 1
      let sleeps = counts.sleeps
      let ready = counts.waiters.filter { $0.count <= sleeps }
      counts.waiters.removeAll { $0.count <= sleeps }
      return ready
    }
    for waiter in ready { waiter.continuation.resume(returning: true) }
    try await base.sleep(until: deadline, tolerance: tolerance)
  }

  /// Waits until at least `count` sleeps have started in total; records an issue (and
  /// returns) if that does not happen within `timeout` of real time.
  func waitForSleeps(
    _ count: Int, timeout: Duration = .seconds(30), sourceLocation: SourceLocation = #_sourceLocation
  ) async {
    let id = counts.withLock { counts in
      defer { counts.nextWaiter += 1 }
      return counts.nextWaiter
    }
    let reached = await withTaskGroup(of: Bool.self) { group in
      group.addTask {
        await withCheckedContinuation { continuation in
          let isReady = self.counts.withLock { counts in
            if counts.sleeps >= count { return true }
            counts.waiters.append(Waiter(id: id, count: count, continuation: continuation))
            return false
          }
          if isReady { continuation.resume(returning: true) }
        }
      }
      group.addTask {
        try? await ContinuousClock().sleep(for: timeout)
        let waiter = self.counts.withLock { counts in
          counts.waiters.firstIndex { $0.id == id }.map { counts.waiters.remove(at: $0) }
        }
        waiter?.continuation.resume(returning: false)
        return false
      }
      let first = await group.next() ?? false
      group.cancelAll()
      return first
    }
    if !reached {
      Issue.record(
        "Expected \(count) sleeps on the clock within \(timeout); \(sleepsStarted) started.",
        sourceLocation: sourceLocation)
    }
  }

  /// Advances the time, waking the sleeps it passes.
  func advance(by duration: Duration) async {
    await base.advance(by: duration)
  }

  /// Waits until `sleeps` sleeps have started in total, then advances the time.
  func advance(
    by duration: Duration, afterSleeps sleeps: Int, sourceLocation: SourceLocation = #_sourceLocation
  ) async {
    await waitForSleeps(sleeps, sourceLocation: sourceLocation)
    await base.advance(by: duration)
  }
}
