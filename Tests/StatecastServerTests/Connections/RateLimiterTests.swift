import Testing

@testable import StatecastServer

/// The token bucket behind `rate_limited`, on a clock the test moves by hand.
@Suite(.timeLimit(.minutes(1))) struct RateLimiterTests {
  let start = ContinuousClock.now

  @Test func aBurstIsAllowedAtOnceAndNoMore() {
    var limiter = RateLimiter(burst: 3, perSecond: 1, now: start)
    var answers: [Bool] = []
    for _ in 0..<4 { answers.append(limiter.allow(now: start)) }
    #expect(answers == [true, true, true, false])
  }

  @Test func tokensComeBackAtTheRefillRate() {
    var limiter = RateLimiter(burst: 2, perSecond: 10, now: start)
    let answers = [
      limiter.allow(now: start), limiter.allow(now: start),
      limiter.allow(now: start + .milliseconds(50)),  // half a token back
      limiter.allow(now: start + .milliseconds(100)),  // one whole token
      limiter.allow(now: start + .milliseconds(100)),
    ]
    #expect(answers == [true, true, false, true, false])
  }

  @Test func refillingStopsAtTheBurst() {
    var limiter = RateLimiter(burst: 2, perSecond: 1_000, now: start)
    let later = start + .seconds(60)
    var answers: [Bool] = []
    for _ in 0..<3 { answers.append(limiter.allow(now: later)) }
    #expect(answers == [true, true, false])
  }
}
