// The README's quick start, compiled and run here so that it cannot rot.
import Statecast
import Testing

@Test func quickStart() async {
  struct Counter: Sendable { var count = 0; var fact: String? }
  enum Action: Sendable { case incrementTapped, factTapped, factLoaded(String) }
  struct Facts: Sendable { var fetch: @Sendable (Int) async throws -> String }

  func counter(facts: Facts) -> Reducer<Counter, Action> {
    Reducer { state, action in
      switch action {
      case .incrementTapped: state.count += 1; return .none
      case .factTapped:
        return .run { [n = state.count] send in await send(.factLoaded(try await facts.fetch(n))) }
      case .factLoaded(let fact): state.fact = fact; return .none
      }
    }
  }
  let store = Store(initialState: Counter(), reducer: counter(facts: Facts { "\($0) is a number" }))
  await store.send(.incrementTapped)
  await store.send(.factTapped).finish()
  #expect(await store.state.fact == "1 is a number")
}
