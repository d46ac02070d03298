import Testing

@testable import StatecastTransport

/// Near the open-files limit new sockets are closed at accept, and served again once
/// descriptors free up.
@Suite(.timeLimit(.minutes(1)))
struct DescriptorGuardTests {
  @Test func socketsAboveTheMarginAreRefusedAndServedAgainWhenLower() {
    var guarded = DescriptorGuard(limit: 1_000)
    #expect(guarded.ceiling == 1_000 - DescriptorGuard.reserve)
    let low = guarded.admits(10)
    let atCeiling = guarded.admits(guarded.ceiling)
    let atLimit = guarded.admits(999)
    let refused = guarded.refused
    let belowAgain = guarded.admits(guarded.ceiling - 1)
    #expect(low && !atCeiling && !atLimit && refused == 2 && belowAgain)
  }
}
