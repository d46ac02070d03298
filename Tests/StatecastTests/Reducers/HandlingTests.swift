import Statecast
import StatecastTesting
import Testing

/// The `handle(event:) -> Effect?` form: the decision is pure, the effect a value.
enum Phase: Equatable, Sendable {
  case idle, loading, loaded([String]), failed
}

enum PhaseAction: Equatable, Sendable {
  case appeared, loaded([String]), failed
}

enum PhaseEffect: Equatable, Sendable {
  case load
}

extension Phase {
  mutating func handle(_ action: PhaseAction) -> PhaseEffect? {
    switch (self, action) {
    case (.idle, .appeared), (.failed, .appeared):
      self = .loading
      return .load
    case (.loading, .loaded(let names)):
      self = .loaded(names)
      return nil
    case (.loading, .failed):
      self = .failed
      return nil
    default:
      return nil
    }
  }
}

struct Catalogue: Sendable {
  var names: @Sendable () async throws -> [String]
}

func phaseReducer(catalogue: Catalogue) -> Reducer<Phase, PhaseAction> {
  .handling(
    { state, action in state.handle(action) },
    with: EffectHandler(dependencies: catalogue) { effect, send, catalogue in
      switch effect {
      case .load:
        do { await send(.loaded(try await catalogue.names())) } catch { await send(.failed) }
      }
    }
  )
}

@Suite struct HandlingTests {
  @Test func theDecisionIsTestedWithDataInAndOut() {
    var phase = Phase.idle
    #expect(phase.handle(.appeared) == .load)
    #expect(phase == .loading)
    #expect(phase.handle(.appeared) == nil)
    #expect(phase.handle(.loaded(["a"])) == nil)
    #expect(phase == .loaded(["a"]))
  }

  @Test func theHandlerPerformsTheEffectWithItsDependencies() async {
    let store = TestStore(
      initialState: Phase.idle, reducer: phaseReducer(catalogue: Catalogue { ["ann", "bo"] }))
    await store.send(.appeared) { $0 = .loading }
    await store.receive(.loaded(["ann", "bo"])) { $0 = .loaded(["ann", "bo"]) }
    await store.finish()
  }

  @Test func failingDependencyTurnsIntoAnAction() async {
    let store = TestStore(
      initialState: Phase.idle,
      reducer: phaseReducer(catalogue: Catalogue { throw Failure() })
    )
    await store.send(.appeared) { $0 = .loading }
    await store.receive(.failed) { $0 = .failed }
    await store.finish()
  }

  @Test func aHandlerCanBeCalledAloneWithARecordingSend() async throws {
    let sent = Recorder<PhaseAction>()
    let handler = EffectHandler<PhaseEffect, PhaseAction> { _, send in await send(.loaded([])) }
    try await handler.perform(.load, send: Send { sent.record($0) })
    #expect(sent.values == [.loaded([])])
  }
}
