import Statecast
import StatecastTesting
import Testing

@Suite(.timeLimit(.minutes(1))) struct EventSourceTests {
  @Test func feedsEveryElementOfASequence() async {
    let events = AsyncStream.makeStream(of: CounterAction.self)
    let store = Store(
      initialState: Counter(), reducer: counterReducer, eventSources: [EventSource(events.stream)])
    var states = store.states.makeAsyncIterator()
    #expect(await states.next()?.count == 0)
    events.continuation.yield(.increment)
    events.continuation.yield(.add(10))
    #expect(await states.next()?.count == 1)
    #expect(await states.next()?.count == 11)
    await store.close()
  }

  @Test func runsForTheStoresLifetimeAndStopsAtClose() async {
    let terminated = Recorder<String>()
    let events = AsyncStream.makeStream(of: CounterAction.self)
    events.continuation.onTermination = { _ in terminated.record("source") }
    let store = Store(
      initialState: Counter(), reducer: counterReducer,
      eventSources: [EventSource { events.stream.map { $0 } }]
    )
    var states = store.states.makeAsyncIterator()
    _ = await states.next()
    events.continuation.yield(.increment)
    #expect(await states.next()?.count == 1)
    await store.close()
    #expect(terminated.values == ["source"])
    #expect(await states.next() == nil)
  }

  @Test func anotherStoresChangesFeedThisStore() async {
    let source = Store(initialState: Counter(), reducer: counterReducer)
    let mirror = Store(
      initialState: Counter(), reducer: counterReducer,
      eventSources: [EventSource { source.states.map { CounterAction.note("source at \($0.count)") } }]
    )
    var mirrored = mirror.states.makeAsyncIterator()
    _ = await mirrored.next()
    #expect(await mirrored.next()?.history == ["source at 0"])
    await source.send(.increment)
    #expect(await mirrored.next()?.history == ["source at 0", "source at 1"])
    await mirror.close()
    await source.close()
  }

  @Test func aTimerTicksOnTheClockItIsGiven() async {
    let clock = TestClock()
    let store = TestStore(
      initialState: Counter(), reducer: counterReducer,
      eventSources: [.timer(every: .seconds(1), clock: clock) { .increment }]
    )
    for second in 1...3 {
      await clock.waitUntilSleeping()
      await clock.advance(by: .seconds(1))
      await store.receive(.increment) { $0.count = second }
    }
    await clock.waitUntilSleeping()
    await clock.advance(by: .milliseconds(500))
    await store.finish()
  }

  @Test func errorsEndTheSourceAndGoToOnError() async {
    let errors = Recorder<Failure>()
    let failed = AsyncStream.makeStream(of: Void.self)
    let store = Store(
      initialState: Counter(), reducer: counterReducer,
      eventSources: [
        EventSource { send in
          await send(.increment)
          throw Failure(reason: "feed lost")
        }
      ],
      onError: {
        errors.record($0 as! Failure)
        failed.continuation.yield()
      }
    )
    var signal = failed.stream.makeAsyncIterator()
    await signal.next()
    #expect(errors.values == [Failure(reason: "feed lost")])
    #expect(await store.state.count == 1)
    await store.close()
  }
}
