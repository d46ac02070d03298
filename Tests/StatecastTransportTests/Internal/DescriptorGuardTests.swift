import Testing

@testable import StatecastTransport

/// Near the open-files limit new sockets are closed at accept, and served again once
/// descriptors free up.
@Suite(.timeLimit(.minutes(1)))
struct DescriptorGuardTests {
  @Test func socketsAboveTheMarginAreRefusedAndServedAgainWhenLower() {
    var guarded = DescriptorGuard(limit: 1_000)
    #expect(guarded.ceiling == 1_000 - DescriptorGuard.reserve)
    #expect(guarded.admits(10))
    #expect(!guarded.admits(guarded.ceiling))
    #expect(!guarded.admits(999))
    #expect(guarded.refused == 2)
    #expect(guarded.admits(guarded.ceiling - 1))
  }
}
