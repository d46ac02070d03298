import Statecast
import Testing

@Suite struct ReducerTests {
  @Test func mutatingFormChangesStateInPlaceWithNoStore() {
    var state = Counter()
    let effect = counterReducer.reduce(into: &state, action: .add(5))
    #expect(state.count == 5)
    #expect(effect.isNone)
  }

  @Test func pureFormReturnsTheNextState() {
    enum Light: Equatable { case red, green }
    let light = Reducer<Light, Bool>.pure { state, go in go ? .green : .red }
    var state = Light.red
    #expect(light.reduce(into: &state, action: true).isNone)
    #expect(state == .green)
    _ = light.reduce(into: &state, action: false)
    #expect(state == .red)
  }

  @Test func emptyLeavesStateAlone() {
    var state = Counter(count: 3)
    #expect(Reducer<Counter, CounterAction>.empty.reduce(into: &state, action: .increment).isNone)
    #expect(state.count == 3)
  }
}
