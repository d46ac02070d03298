import Statecast
import StatecastTesting
import Testing

struct Parent: Equatable, Sendable {
  var counter = Counter()
  var resets = 0
}

@Suite struct ScopeTests {
  let parent = Reducer<Parent, ParentAction>.combine(
    .scope(state: \.counter, action: .counter, child: counterReducer),
    Reducer { state, action in
      if case .reset = action {
        state.counter = Counter()
        state.resets += 1
      }
      return .none
    }
  )

  @Test func routesChildActionsToChildState() {
    var state = Parent()
    _ = parent.reduce(into: &state, action: .counter(.add(3)))
    #expect(state.counter.count == 3)
    _ = parent.reduce(into: &state, action: .reset)
    #expect(state == Parent(counter: Counter(), resets: 1))
  }

  @Test func mapsChildEffectsToParentActions() async {
    let child = Reducer<Counter, CounterAction> { state, action in
      switch action {
      case .increment:
        return .run { send in await send(.note("effect")) }
      case .note(let text):
        state.history.append(text)
        return .none
      default:
        return .none
      }
    }
    let store = TestStore(
      initialState: Parent(),
      reducer: .scope(state: \.counter, action: .counter, child: child)
    )
    await store.send(.counter(.increment))
    await store.receive(.counter(.note("effect"))) { $0.counter.history = ["effect"] }
    await store.finish()
  }
}
