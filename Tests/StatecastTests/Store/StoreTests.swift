import Statecast
import Testing

@Suite(.timeLimit(.minutes(1))) struct StoreTests {
  @Test func sendReducesBeforeReturningAndStartsNoTaskOnTheFastPath() async {
    let store = Store(initialState: Counter(), reducer: counterReducer)
    let task = await store.send(.increment)
    #expect(task.isEmpty)
    #expect(await store.state.count == 1)
  }

  @Test func concurrentSendersAreProcessedOneAtATimeKeepingEachSendersOrder() async {
    struct Log: Sendable { var entries: [Int: [Int]] = [:] }
    let reducer = Reducer<Log, (sender: Int, index: Int)> { state, action in
      state.entries[action.sender, default: []].append(action.index)
      return .none
    }
    let store = Store(initialState: Log(), reducer: reducer)
    await withDiscardingTaskGroup { group in
      for sender in 0..<200 {
        group.addTask {
          for index in 0..<50 { await store.send((sender: sender, index: index)) }
        }
      }
    }
    let entries = await store.state.entries
    #expect(entries.count == 200)
    #expect(entries.values.allSatisfy { $0 == Array(0..<50) })
  }

  @Test func finishWaitsForEverythingTheActionStartedTransitively() async {
    // .increment → effect sends .note("effect") → middleware answers .add(100) after
    // yielding a few times → only then does the first action's work end.
    let reducer = Reducer<Counter, CounterAction> { state, action in
      _ = counterReducer.reduce(into: &state, action: action)
      guard action == .increment else { return .none }
      return .run { send in await send(.note("effect")) }
    }
    let middleware = Middleware<Counter, CounterAction> { _, action in
      guard action == .note("effect") else { return nil }
      for _ in 0..<100 { await Task.yield() }
      return .add(100)
    }
    let store = Store(initialState: Counter(), reducer: reducer, middlewares: [middleware])
    await store.send(.increment).finish()
    #expect(await store.state == Counter(count: 101, history: ["effect"]))
  }

  @Test func cancellingTheTaskWaitingOnFinishCancelsTheWork() async {
    let cancelled = AsyncStream.makeStream(of: Void.self)
    let reducer = Reducer<Counter, CounterAction> { _, _ in
      .run { _ in
        do { try await Task.sleep(for: .seconds(3600)) } catch { cancelled.continuation.yield() }
      }
    }
    let store = Store(initialState: Counter(), reducer: reducer)
    let task = await store.send(.increment)
    let waiter = Task { await task.finish() }
    waiter.cancel()
    await waiter.value
    var cancellations = cancelled.stream.makeAsyncIterator()
    await cancellations.next()
    #expect(task.isCancelled)
  }

  @Test func closeCancelsEveryOwnedTaskAndWaitsForIt() async {
    let ended = Recorder<String>()
    let started = AsyncStream.makeStream(of: String.self)
    /// Waits until cancelled, then takes a few more suspensions to clean up, and only
    /// then records that it ended: `close` must wait for all of it.
    @Sendable func work(_ name: String) async {
      started.continuation.yield(name)
      try? await Task.sleep(for: .seconds(3600))
      for _ in 0..<10 { await Task.yield() }
      ended.record(name)
    }
    let reducer = Reducer<Counter, CounterAction> { _, action in
      action == .increment ? .run { _ in await work("effect") } : .none
    }
    let store = Store(
      initialState: Counter(),
      reducer: reducer,
      middlewares: [
        Middleware { _, _ in
          await work("middleware"); return nil
        }
      ],
      eventSources: [EventSource { _ in await work("event source") }]
    )
    await store.send(.increment)
    var starts = started.stream.makeAsyncIterator()
    var running: Set<String> = []
    for _ in 0..<3 { running.insert(await starts.next()!) }
    #expect(running == ["effect", "middleware", "event source"])
    #expect(ended.values.isEmpty)

    await store.close()
    #expect(Set(ended.values) == ["effect", "middleware", "event source"])
    #expect(await store.isClosed)
    let afterClose = await store.send(.increment)
    #expect(afterClose.isEmpty)
    #expect(await store.state.count == 0)
  }

  @Test func releasingTheStoreCancelsItsTasks() async {
    let cancelled = AsyncStream.makeStream(of: Void.self)
    let started = AsyncStream.makeStream(of: Void.self)
    let reducer = Reducer<Counter, CounterAction> { _, _ in
      .run { _ in
        started.continuation.yield()
        try? await Task.sleep(for: .seconds(3600))
        cancelled.continuation.yield()
      }
    }
    var store: Store<Counter, CounterAction>? = Store(initialState: Counter(), reducer: reducer)
    weak let released = store
    await store?.send(.increment)
    var starts = started.stream.makeAsyncIterator()
    await starts.next()
    store = nil
    // Nothing but the store's release ends the hour-long effect.
    #expect(released == nil)
    var cancellations = cancelled.stream.makeAsyncIterator()
    let cancellation: Void? = await cancellations.next()
    #expect(cancellation != nil)
  }

  @Test func errorsWithoutAHandlerGoToOnErrorAndCancellationIsNoError() async {
    let errors = Recorder<Failure>()
    let reducer = Reducer<Counter, CounterAction> { _, action in
      switch action {
      case .increment: .run { _ in throw Failure(reason: "boom") }
      case .decrement: .run { _ in try await Task.sleep(for: .seconds(3600)) }
      default: .none
      }
    }
    let store = Store(initialState: Counter(), reducer: reducer, onError: { errors.record($0 as! Failure) })
    await store.send(.increment).finish()
    #expect(errors.values == [Failure(reason: "boom")])
    await store.send(.decrement)
    await store.close()
    #expect(errors.values == [Failure(reason: "boom")])
  }

  @Test func observersSeeEveryStateInOrderBeforeSendReturns() async {
    let seen = Recorder<Int>()
    let reducer = Reducer<Counter, CounterAction> { state, action in
      _ = counterReducer.reduce(into: &state, action: action)
      return action == .add(10) ? .send(.increment) : .none
    }
    let store = Store(initialState: Counter(), reducer: reducer)
    let observation = await store.observe { seen.record($0.count) }
    await store.send(.increment)
    #expect(seen.values == [1])
    await store.send(.add(10))
    #expect(seen.values == [1, 11, 12])
    observation.cancel()
    await store.send(.increment)
    #expect(seen.values == [1, 11, 12])
  }

  @Test func releasingAnObservationEndsIt() async {
    let seen = Recorder<Int>()
    let store = Store(initialState: Counter(count: 5), reducer: counterReducer)
    var observation: StoreObservation? = await store.observe(includingCurrent: true) { seen.record($0.count) }
    await store.send(.increment)
    #expect(observation?.isCancelled == false)
    observation = nil
    await store.send(.increment)
    #expect(seen.values == [5, 6])
  }

  @Test func statesYieldsTheCurrentStateThenEveryNewOneAndEndsAtClose() async {
    let store = Store(initialState: Counter(), reducer: counterReducer)
    await store.send(.add(7))
    var states = store.states.makeAsyncIterator()
    #expect(await states.next()?.count == 7)
    for _ in 0..<100 { await store.send(.increment) }
    for expected in 8...107 { #expect(await states.next()?.count == expected) }
    await store.close()
    #expect(await states.next() == nil)
  }

  @Test func concurrentObserversAndSendersSeeTheSameSequence() async {
    let store = Store(initialState: Counter(), reducer: counterReducer)
    var states = store.states.makeAsyncIterator()
    _ = await states.next()
    await withDiscardingTaskGroup { group in
      for _ in 0..<10 {
        group.addTask { for _ in 0..<100 { await store.send(.increment) } }
      }
    }
    for expected in 1...1000 { #expect(await states.next()?.count == expected) }
  }
}
