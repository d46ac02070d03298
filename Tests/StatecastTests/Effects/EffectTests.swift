import Statecast
import StatecastTesting
import Testing

@Suite struct EffectTests {
  @Test func mergeDropsNoneAndFlattens() {
    #expect(Effect<CounterAction>.merge(.none, .none).isNone)
    #expect(Effect<CounterAction>.merge([]).isNone)
    #expect(!Effect<CounterAction>.merge(.none, .send(.increment)).isNone)
  }

  @Test func sendFeedsTheActionBackBeforeSendReturns() async {
    let reducer = Reducer<Counter, CounterAction> { state, action in
      _ = counterReducer.reduce(into: &state, action: action)
      return action == .increment ? .merge(.send(.note("a")), .send(.note("b"))) : .none
    }
    let store = Store(initialState: Counter(), reducer: reducer)
    let task = await store.send(.increment)
    #expect(task.isEmpty)
    #expect(await store.state == Counter(count: 1, history: ["a", "b"]))
  }

  @Test func runSendsSeveralActionsInOrder() async {
    let reducer = Reducer<Counter, CounterAction> { state, action in
      _ = counterReducer.reduce(into: &state, action: action)
      guard action == .increment else { return .none }
      return .run { send in
        for text in ["one", "two", "three"] { await send(.note(text)) }
      }
    }
    let store = TestStore(initialState: Counter(), reducer: reducer)
    await store.send(.increment) { $0.count = 1 }
    await store.receive(.note("one")) { $0.history = ["one"] }
    await store.receive(.note("two")) { $0.history.append("two") }
    await store.receive(.note("three")) { $0.history.append("three") }
    await store.finish()
  }

  @Test func catchHandlerTurnsErrorsIntoActions() async {
    let errors = Recorder<String>()
    let reducer = Reducer<Counter, CounterAction> { state, action in
      _ = counterReducer.reduce(into: &state, action: action)
      guard action == .increment else { return .none }
      return .run { _ in
        throw Failure(reason: "offline")
      } catch: { error, send in
        await send(.note("caught \((error as? Failure)?.reason ?? "?")"))
      }
    }
    let store = TestStore(initialState: Counter(), reducer: reducer, onError: { errors.record("\($0)") })
    await store.send(.increment) { $0.count = 1 }
    await store.receive(.note("caught offline")) { $0.history = ["caught offline"] }
    await store.finish()
    #expect(errors.values.isEmpty)
  }

  @Test func mapTurnsChildActionsIntoParentActions() async {
    let child: Effect<CounterAction> = .merge(
      .send(.increment),
      .run { send in
        await send(.add(2))
      } catch: { _, send in
        await send(.decrement)
      }
    )
    let reducer = Reducer<Parent, ParentAction> { state, action in
      switch action {
      case .reset: return child.map(ParentAction.counter)
      case .counter(let action):
        return counterReducer.reduce(into: &state.counter, action: action).map(ParentAction.counter)
      }
    }
    let store = TestStore(initialState: Parent(), reducer: reducer)
    await store.send(.reset)
    await store.receive(.counter(.increment)) { $0.counter.count = 1 }
    await store.receive(.counter(.add(2))) { $0.counter.count = 3 }
    await store.finish()
  }

  @Test func mapKeepsTheCatchHandler() async {
    let child: Effect<CounterAction> = .run { _ in
      throw Failure()
    } catch: { _, send in
      await send(.decrement)
    }
    let reducer = Reducer<Parent, ParentAction> { state, action in
      switch action {
      case .reset: return child.map(ParentAction.counter)
      case .counter(let action):
        return counterReducer.reduce(into: &state.counter, action: action).map(ParentAction.counter)
      }
    }
    let store = TestStore(initialState: Parent(), reducer: reducer)
    await store.send(.reset)
    await store.receive(.counter(.decrement)) { $0.counter.count = -1 }
    await store.finish()
  }
}
