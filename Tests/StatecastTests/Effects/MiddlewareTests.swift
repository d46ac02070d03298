import Statecast
import StatecastTesting
import Testing

struct Saver: Sendable {
  var save: @Sendable (Int) async throws -> Void
}

@Suite(.timeLimit(.minutes(1))) struct MiddlewareTests {
  @Test func seesTheStateAfterTheReducerAndItsActionIsFedBack() async {
    let saved = Recorder<Int>()
    let saving = Middleware<Counter, CounterAction>(dependencies: Saver { saved.record($0) }) {
      state, action, saver in
      guard action == .increment else { return nil }
      try await saver.save(state.count)
      return .note("saved \(state.count)")
    }
    let store = TestStore(initialState: Counter(count: 41), reducer: counterReducer, middlewares: [saving])
    await store.send(.increment) { $0.count = 42 }
    await store.receive(.note("saved 42")) { $0.history = ["saved 42"] }
    await store.finish()
    #expect(saved.values == [42])
  }

  @Test func allMiddlewaresOfAnActionRunConcurrently() async {
    // Each middleware waits for the other: run one after another, neither would end.
    let rendezvous = Rendezvous(count: 2)
    let first = Middleware<Counter, CounterAction> { _, action in
      guard action == .increment else { return nil }
      await rendezvous.arrive()
      return .note("first")
    }
    let second = Middleware<Counter, CounterAction> { _, action in
      guard action == .increment else { return nil }
      await rendezvous.arrive()
      return .note("second")
    }
    let store = Store(initialState: Counter(), reducer: counterReducer, middlewares: [first, second])
    await store.send(.increment).finish()
    #expect(await store.state.history.sorted() == ["first", "second"])
  }

  @Test func errorsGoToOnErrorAndTheStoreKeepsRunning() async {
    let errors = Recorder<Failure>()
    let failing = Middleware<Counter, CounterAction> { _, action in
      if action == .increment { throw Failure(reason: "disk full") }
      return nil
    }
    let store = Store(
      initialState: Counter(), reducer: counterReducer, middlewares: [failing],
      onError: { errors.record($0 as! Failure) }
    )
    await store.send(.increment).finish()
    await store.send(.increment).finish()
    #expect(errors.values == [Failure(reason: "disk full"), Failure(reason: "disk full")])
    #expect(await store.state.count == 2)
  }

  @Test func runsAloneWithoutAStore() async throws {
    let echo = Middleware<Counter, CounterAction> { state, _ in .add(state.count) }
    #expect(try await echo.run(state: Counter(count: 3), action: .increment) == .add(3))
  }
}
