import Statecast
import Testing

@Suite(.timeLimit(.minutes(1))) struct DurableStoreTests {
  @Test func aChangeIsCommittedBeforeObserversSendersAndEffectsHearOfIt() async throws {
    let script = CommitScript<Counter>()
    let observed = Recorder<Int>()
    let effects = Recorder<CounterAction>()
    let middleware = Middleware<Counter, CounterAction> { _, action in
      effects.record(action)
      return nil
    }
    let store = Store(
      initialState: Counter(), reducer: counterReducer, middlewares: [middleware], commit: script.commit
    )
    let observation = await store.observe { observed.record($0.count) }
    var arrivals = script.arrivals.makeAsyncIterator()

    let task = await store.send(.increment)
    let commit = try #require(await arrivals.next())
    #expect(commit.commit.previous.count == 0)
    #expect(commit.commit.state.count == 1)
    #expect(commit.commit.actionCount == 1)
    #expect(await store.state.count == 0)
    #expect(observed.values.isEmpty)
    #expect(effects.values.isEmpty)

    commit.succeed()
    try await task.committed()
    #expect(observed.values == [1])
    #expect(await store.state.count == 1)
    await task.finish()
    #expect(effects.values == [.increment])
    observation.cancel()
  }

  @Test func actionsSentDuringACommitAreReducedOnTopAndCommittedTogetherInOrder() async throws {
    let script = CommitScript<Counter>()
    let observed = Recorder<Int>()
    let store = Store(initialState: Counter(), reducer: counterReducer, commit: script.commit)
    let observation = await store.observe { observed.record($0.count) }
    var arrivals = script.arrivals.makeAsyncIterator()

    let first = await store.send(.increment)
    let firstCommit = try #require(await arrivals.next())
    let rest = [await store.send(.add(10)), await store.send(.increment), await store.send(.add(100))]
    firstCommit.succeed()
    let second = try #require(await arrivals.next())
    #expect(second.commit.previous.count == 1)
    #expect(second.commit.state.count == 112)
    #expect(second.commit.actionCount == 3)
    second.succeed()

    try await first.committed()
    for task in rest { try await task.committed() }
    #expect(observed.values == [1, 11, 12, 112])
    observation.cancel()
  }

  @Test func aFailedCommitRollsBackAndFailsEveryActionReducedOnTopOfIt() async throws {
    let script = CommitScript<Counter>()
    let observed = Recorder<Int>()
    let effects = Recorder<CounterAction>()
    let store = Store(
      initialState: Counter(count: 5), reducer: counterReducer,
      middlewares: [
        Middleware { _, action in
          effects.record(action); return nil
        }
      ],
      commit: script.commit
    )
    let observation = await store.observe { observed.record($0.count) }
    var arrivals = script.arrivals.makeAsyncIterator()

    let kept = await store.send(.increment)
    try #require(await arrivals.next()).succeed()
    try await kept.committed()
    await kept.finish()

    let inFlight = await store.send(.add(10))
    let failing = try #require(await arrivals.next())
    let onTop = await store.send(.add(100))
    failing.fail()

    for task in [inFlight, onTop] {
      await #expect(throws: CommitError.self) { try await task.committed() }
      await task.finish()
    }
    #expect(await store.state.count == 6)
    #expect(observed.values == [6])
    #expect(effects.values == [.increment])

    // The next action starts from the committed state, not from a rolled-back one.
    let after = await store.send(.decrement)
    let next = try #require(await arrivals.next())
    #expect(next.commit.previous.count == 6)
    #expect(next.commit.state.count == 5)
    next.succeed()
    try await after.committed()
    #expect(observed.values == [6, 5])
    observation.cancel()
  }

  @Test func followUpsOfTheReducerShareTheirActionsCommit() async throws {
    let script = CommitScript<Counter>()
    let reducer = Reducer<Counter, CounterAction> { state, action in
      _ = counterReducer.reduce(into: &state, action: action)
      return action == .increment ? .merge(.send(.note("a")), .send(.note("b"))) : .none
    }
    let store = Store(initialState: Counter(), reducer: reducer, commit: script.commit)
    var arrivals = script.arrivals.makeAsyncIterator()
    let task = await store.send(.increment)
    let commit = try #require(await arrivals.next())
    #expect(commit.commit.actionCount == 3)
    #expect(commit.commit.state == Counter(count: 1, history: ["a", "b"]))
    commit.succeed()
    try await task.committed()
  }

  @Test func actionsFedBackByEffectsAreCommittedAndTheirFailureGoesToOnError() async throws {
    let script = CommitScript<Counter>()
    let errors = Recorder<String>()
    let reducer = Reducer<Counter, CounterAction> { state, action in
      _ = counterReducer.reduce(into: &state, action: action)
      return action == .increment ? .run { send in await send(.note("effect")) } : .none
    }
    let store = Store(
      initialState: Counter(), reducer: reducer, onError: { errors.record("\($0)") }, commit: script.commit
    )
    var arrivals = script.arrivals.makeAsyncIterator()
    let task = await store.send(.increment)
    try #require(await arrivals.next()).succeed()
    let fedBack = try #require(await arrivals.next())
    #expect(fedBack.commit.state.history == ["effect"])
    fedBack.fail()
    await task.finish()
    try await task.committed()
    #expect(await store.state == Counter(count: 1, history: []))
    #expect(errors.values.count == 1)
    #expect(errors.values.first?.contains("disk full") == true)
  }

  @Test func closingDrainsTheCommitsInFlightAndRefusesLaterActions() async throws {
    let script = CommitScript<Counter>()
    let observed = Recorder<Int>()
    let store = Store(initialState: Counter(), reducer: counterReducer, commit: script.commit)
    let observation = await store.observe { observed.record($0.count) }
    var arrivals = script.arrivals.makeAsyncIterator()
    let task = await store.send(.increment)
    let commit = try #require(await arrivals.next())
    let closing = Task { await store.close() }
    while await !store.isClosed { await Task.yield() }
    let late = await store.send(.increment)
    await #expect(throws: CommitError.self) { try await late.committed() }
    commit.succeed()
    await closing.value
    try await task.committed()
    #expect(observed.values == [1])
    #expect(await store.state.count == 1)
    observation.cancel()
  }

  @Test func aStoreWithoutCommitFunctionIsNotDurableAndCommitsAtOnce() async throws {
    let store = Store(initialState: Counter(), reducer: counterReducer)
    #expect(!store.isDurable)
    let task = await store.send(.increment)
    #expect(task.isEmpty)
    try await task.committed()
  }
}
