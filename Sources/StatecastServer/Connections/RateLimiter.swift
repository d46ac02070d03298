/// A token bucket that bounds how many actions one connection may send.
///
/// A connection starts with `burst` tokens; each action takes one; tokens come back at
/// `perSecond` per second up to `burst`. PROTOCOL.md's default is a burst of 1,000
/// refilled at 1,000 per second: a person clicking or typing never meets it, a script
/// flooding the store does.
///
/// Not thread-safe: owned by one connection's message loop.
struct RateLimiter: Sendable {
  let burst: Double
  let perSecond: Double
  private var tokens: Double
  private var refilledAt: ContinuousClock.Instant

  init(burst: Int, perSecond: Double, now: ContinuousClock.Instant = .now) {
    self.burst = Double(burst)
    self.perSecond = perSecond
    self.tokens = Double(burst)
    self.refilledAt = now
  }

  /// Takes one token if one is available.
  mutating func allow(now: ContinuousClock.Instant = .now) -> Bool {
    let elapsed = refilledAt.duration(to: now)
    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
    tokens = min(burst, tokens + seconds * perSecond)
    refilledAt = now
    guard tokens >= 1 else { return false }
    tokens -= 1
    return true
  }
}
