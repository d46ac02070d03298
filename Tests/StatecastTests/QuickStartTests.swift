// The README's quick start, compiled and run here so that it cannot rot. The README's
// declarations sit in a namespace so that they do not clash with the other tests'.
import Statecast
import StatecastTesting
import Testing

enum QuickStart {
  struct Counter: Equatable, Sendable { var count = 0; var fact: String? }
  enum Action: Equatable, Sendable { case incrementTapped, factTapped, factLoaded(String) }
  struct Facts: Sendable { var fetch: @Sendable (Int) async throws -> String }

  static func counter(facts: Facts) -> Reducer<Counter, Action> {
    Reducer { state, action in
      switch action {
      case .incrementTapped: state.count += 1; return .none
      case .factTapped:
        return .run { [n = state.count] send in await send(.factLoaded(try await facts.fetch(n))) }
      case .factLoaded(let fact): state.fact = fact; return .none
      }
    }
  }
}

@Suite struct QuickStartTests {
  typealias Counter = QuickStart.Counter
  typealias Facts = QuickStart.Facts
  let counter = QuickStart.counter(facts:)

  @Test func storeQuickStart() async {
    let store = Store(initialState: Counter(), reducer: counter(Facts { "\($0) is a number" }))
    await store.send(.incrementTapped)
    await store.send(.factTapped).finish()  // waits for the effect and what it sent back
    #expect(await store.state == Counter(count: 1, fact: "1 is a number"))
  }

  @Test func testStoreQuickStart() async {
    let store = TestStore(initialState: Counter(), reducer: counter(Facts { _ in "fact" }))
    await store.send(.incrementTapped) { $0.count = 1 }
    await store.send(.factTapped)
    await store.receive(.factLoaded("fact")) { $0.fact = "fact" }
    await store.finish()
  }
}
