import Foundation
import Statecast
import StatecastExamples
import StatecastTesting
import Testing

@Suite("RecruitmentProcesses")
struct RecruitmentProcessesTests {
  typealias Feature = RecruitmentProcesses
  let clock = CountingClock()
  let processes = RecruitmentService.sampleProcesses

  @Test func handleDecidesTheNextStateAndTheEffect() {
    func handle(_ state: Feature.State, _ event: Feature.Action) -> (Feature.State, Feature.EffectValue?) {
      var state = state
      let effect = state.handle(event: event)
      return (state, effect)
    }
    let list = [Feature.Process(id: "x", company: "A", position: "B", stage: "C")]
    #expect(handle(.idle, .client(.load)) == (.loading, .loadProcesses))
    #expect(handle(.error(message: "down"), .client(.retry)) == (.loading, .loadProcesses))
    #expect(handle(.loading, .processesLoaded(list)) == (.loaded(list), nil))
    #expect(handle(.loading, .processesFailedToLoad(message: "down")) == (.error(message: "down"), nil))
    #expect(handle(.loaded(list), .loggedOut) == (.idle, .clearSession))
    #expect(handle(.loading, .loggedOut) == (.idle, .clearSession))
    #expect(handle(.loaded(list), .client(.expireSession)) == (.loaded(list), .expireSession))
    // Events that do not apply to the current state change nothing and ask for nothing.
    #expect(handle(.loading, .client(.load)) == (.loading, nil))
    #expect(handle(.idle, .client(.retry)) == (.idle, nil))
    #expect(handle(.loaded(list), .client(.load)) == (.loaded(list), nil))
    #expect(handle(.idle, .processesLoaded(list)) == (.idle, nil))
    #expect(handle(.error(message: "x"), .processesFailedToLoad(message: "y")) == (.error(message: "x"), nil))
  }

  @Test func theFirstLoadFailsThenARetrySucceedsThenLogOutResets() async {
    let dependencies = Feature.Dependencies.live(clock: clock, latency: .seconds(1))
    let store = TestStore(
      initialState: .idle,
      reducer: Feature.reducer(dependencies: dependencies),
      eventSources: Feature.eventSources(dependencies: dependencies)
    )
    await store.send(.client(.load)) { $0 = .loading }
    await clock.advance(by: .seconds(1), afterSleeps: 1)
    let unreachable = RecruitmentServiceError.unreachable.description
    await store.receive(.processesFailedToLoad(message: unreachable)) { $0 = .error(message: unreachable) }

    await store.send(.client(.retry)) { $0 = .loading }
    await clock.advance(by: .seconds(1), afterSleeps: 2)
    await store.receive(.processesLoaded(processes)) { $0 = .loaded(processes) }

    // The log-out comes back through the session's event source, not from the reducer.
    await store.send(.client(.expireSession))
    await store.receive(.loggedOut) { $0 = .idle }

    await store.send(.client(.load)) { $0 = .loading }
    await clock.advance(by: .seconds(1), afterSleeps: 3)
    await store.receive(.processesLoaded(processes)) { $0 = .loaded(processes) }
    await store.finish()
  }

  @Test func aLogOutWhileLoadingResetsAndTheLateResultIsIgnored() async {
    let calls = Recorder<String>()
    let (events, continuation) = AsyncStream<Feature.SessionEvent>.makeStream()
    let dependencies = Feature.Dependencies(
      fetchProcesses: { [clock, processes] in
        try await clock.sleep(for: .seconds(1))
        return processes
      },
      expireSession: { calls.record("expire") },
      clearSession: { calls.record("clear") },
      sessionEvents: { events }
    )
    let store = TestStore(
      initialState: .idle,
      reducer: Feature.reducer(dependencies: dependencies),
      eventSources: Feature.eventSources(dependencies: dependencies)
    )
    await store.send(.client(.load)) { $0 = .loading }
    continuation.yield(.loggedOut)
    await store.receive(.loggedOut) { $0 = .idle }
    await clock.advance(by: .seconds(1), afterSleeps: 1)
    await store.receive(.processesLoaded(processes))
    await store.finish()
    #expect(calls.values == ["clear"])
  }

  @Test func theEffectHandlerPerformsEachValue() async throws {
    let calls = Recorder<String>()
    let sent = Recorder<Feature.Action>()
    let send = Send<Feature.Action> { sent.record($0) }
    var failing = true
    let handler = { @Sendable (fails: Bool) in
      Feature.effectHandler(
        dependencies: Feature.Dependencies(
          fetchProcesses: {
            if fails { throw TestFailure("Timed out.") }
            return [Feature.Process(id: "1", company: "A", position: "B", stage: "C")]
          },
          expireSession: { calls.record("expire") },
          clearSession: { calls.record("clear") },
          sessionEvents: { AsyncStream { $0.finish() } }
        ))
    }
    try await handler(failing).perform(.loadProcesses, send: send)
    failing = false
    try await handler(failing).perform(.loadProcesses, send: send)
    try await handler(failing).perform(.expireSession, send: send)
    try await handler(failing).perform(.clearSession, send: send)
    #expect(
      sent.values == [
        .processesFailedToLoad(message: "Timed out."),
        .processesLoaded([Feature.Process(id: "1", company: "A", position: "B", stage: "C")]),
      ])
    #expect(calls.values == ["expire", "clear"])
  }

  @Test func theServiceFailsFirstThenServesAndEndsSessions() async throws {
    let service = RecruitmentService(clock: ImmediateClock(), latency: .seconds(1))
    let events = service.events()
    await #expect(throws: RecruitmentServiceError.unreachable) { try await service.fetchProcesses() }
    #expect(try await service.fetchProcesses() == RecruitmentService.sampleProcesses)
    await service.expireSession()
    var iterator = events.makeAsyncIterator()
    #expect(await iterator.next() == .loggedOut)
    await #expect(throws: RecruitmentServiceError.notLoggedIn) { try await service.fetchProcesses() }
    await service.startSession()
    #expect(try await service.fetchProcesses() == RecruitmentService.sampleProcesses)
  }

  @Test func viewState() throws {
    var view = Feature.viewState(.idle)
    #expect(
      view.status == "idle" && view.canLoad && !view.canRetry && !view.isLoading && view.processes.isEmpty)
    view = Feature.viewState(.loading)
    #expect(view.status == "loading" && view.isLoading && !view.canLoad)
    view = Feature.viewState(.error(message: "down"))
    #expect(view.status == "error" && view.canRetry && view.errorMessage == "down")
    view = Feature.viewState(.loaded([]))
    #expect(view.status == "loaded" && view.emptyMessage != nil)
    view = Feature.viewState(.loaded(processes))
    #expect(view.processes == processes && view.emptyMessage == nil && view.errorMessage == nil)

    let json = try JSONSerialization.jsonObject(with: JSONEncoder().encode(view)) as? [String: Any]
    let first = (json?["processes"] as? [[String: String]])?.first
    #expect(first?["id"] == "p1" && first?["company"] == "Jobandtalent")
  }

  @Test func clientActionsDecodeFromTheWireForm() throws {
    for (json, action) in [
      (#"{"load":{}}"#, Feature.ClientAction.load), (#"{"retry":{}}"#, .retry),
      (#"{"expireSession":{}}"#, .expireSession),
    ] {
      #expect(try JSONDecoder().decode(Feature.ClientAction.self, from: Data(json.utf8)) == action)
    }
    #expect(throws: DecodingError.self) {
      try JSONDecoder().decode(Feature.ClientAction.self, from: Data(#"{"loggedOut":{}}"#.utf8))
    }
  }

  @Test func theLiveStoreWalksThroughEveryState() async {
    let store = Feature.makeStore(
      dependencies: .live(clock: ImmediateClock(), latency: .seconds(1)), join: Join())
    await store.send(.client(.load))
    let failed = await firstState(of: store) { if case .error = $0 { true } else { false } }
    #expect(failed == .error(message: RecruitmentServiceError.unreachable.description))
    await store.send(.client(.retry))
    #expect(await firstState(of: store) { $0 == .loaded(RecruitmentService.sampleProcesses) } != nil)
    await store.send(.client(.expireSession))
    #expect(await firstState(of: store) { $0 == .idle } != nil)
    await store.close()
  }
}
