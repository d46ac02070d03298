import Statecast
import Testing

@Suite struct CombineTests {
  @Test func runsReducersInOrderOnTheSameState() {
    let double = Reducer<Counter, CounterAction> { state, _ in
      state.count *= 2
      return .none
    }
    var state = Counter(count: 1)
    _ = Reducer.combine(counterReducer, double).reduce(into: &state, action: .increment)
    #expect(state.count == 4)  // (1 + 1) * 2, not 1 * 2 + 1
    state = Counter(count: 1)
    _ = double.combined(with: counterReducer).reduce(into: &state, action: .increment)
    #expect(state.count == 3)
  }

  @Test func mergesEffectsInOrder() async {
    let first = Reducer<Counter, CounterAction> { _, action in
      action == .increment ? .send(.note("first")) : .none
    }
    let second = Reducer<Counter, CounterAction> { _, action in
      action == .increment ? .send(.note("second")) : .none
    }
    let store = Store(initialState: Counter(), reducer: .combine(counterReducer, first, second))
    await store.send(.increment)
    #expect(await store.state == Counter(count: 1, history: ["first", "second"]))
  }

  @Test func combiningNothingOrOneIsNeutral() {
    var state = Counter()
    _ = Reducer<Counter, CounterAction>.combine([]).reduce(into: &state, action: .increment)
    #expect(state.count == 0)
    _ = Reducer.combine([counterReducer]).reduce(into: &state, action: .increment)
    #expect(state.count == 1)
  }
}
