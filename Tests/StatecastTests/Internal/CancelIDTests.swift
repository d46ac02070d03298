import Statecast
import Testing

/// A cancellation id is its value and its type: equal values of one type are one id,
/// whatever wraps them; the same number as two types is two ids.
@Suite struct CancelIDTests {
  private enum Timer: Hashable, Sendable { case tick, tock }

  @Test func equalValuesOfOneTypeAreOneID() {
    #expect(CancelID(Timer.tick) == CancelID(Timer.tick))
    #expect(CancelID(Timer.tick) != CancelID(Timer.tock))
    #expect(CancelID("timer") == CancelID("timer"))
    #expect(Set([CancelID(Timer.tick), CancelID(Timer.tick), CancelID("timer")]).count == 2)
  }

  @Test func theSameNumberAsTwoTypesIsTwoIDs() {
    #expect(CancelID(1) != CancelID(Int8(1)))
    #expect(Set([CancelID(1), CancelID(Int8(1))]).count == 2)
  }
}
