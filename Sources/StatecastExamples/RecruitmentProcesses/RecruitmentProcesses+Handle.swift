public import Statecast

extension RecruitmentProcesses.State {
  /// Decides the next state for `event` and returns the effect to run, if any.
  ///
  /// Pure: tested by comparing the returned value and the new state, with no store.
  ///
  /// ```swift
  /// var state = RecruitmentProcesses.State.idle
  /// state.handle(event: .client(.load))  // .loadProcesses; state == .loading
  /// ```
  public mutating func handle(event: RecruitmentProcesses.Action) -> RecruitmentProcesses.EffectValue? {
    switch (self, event) {
    case (.idle, .client(.load)), (.error, .client(.retry)):
      self = .loading
      return .loadProcesses
    case (.loading, .processesLoaded(let processes)):
      self = .loaded(processes)
      return nil
    case (.loading, .processesFailedToLoad(let message)):
      self = .error(message: message)
      return nil
    case (_, .client(.expireSession)):
      return .expireSession
    case (_, .loggedOut):
      self = .idle
      return .clearSession
    case (_, .client(.load)), (_, .client(.retry)), (_, .processesLoaded), (_, .processesFailedToLoad):
      return nil
    }
  }
}

extension RecruitmentProcesses {
  /// Performs effect values with the feature's dependencies, sending results back.
  public static func effectHandler(dependencies: Dependencies) -> EffectHandler<EffectValue, Action> {
    EffectHandler(dependencies: dependencies) { effect, send, dependencies in
      switch effect {
      case .loadProcesses:
        do {
          await send(.processesLoaded(try await dependencies.fetchProcesses()))
        } catch is CancellationError {
          return
        } catch {
          await send(.processesFailedToLoad(message: describe(error)))
        }
      case .expireSession:
        await dependencies.expireSession()
      case .clearSession:
        await dependencies.clearSession()
      }
    }
  }

  /// The store's reducer: ``State/handle(event:)`` with its effects performed by
  /// ``effectHandler(dependencies:)``.
  public static func reducer(dependencies: Dependencies) -> Reducer<State, Action> {
    .handling(
      { state, action in state.handle(event: action) }, with: effectHandler(dependencies: dependencies))
  }

  /// The store's event sources: the session's events for as long as the store lives.
  ///
  /// It subscribes at once, when the store is built, so that no event sent before the
  /// store's task starts listening is lost.
  public static func eventSources(dependencies: Dependencies) -> [EventSource<Action>] {
    let events = dependencies.sessionEvents()
    return [
      EventSource {
        events.map { event -> Action in
          switch event {
          case .loggedOut: .loggedOut
          }
        }
      }
    ]
  }

  /// A store for one browser, idle until the page asks to load.
  public static func makeStore(dependencies: Dependencies, join: Join) -> Store<State, Action> {
    Store(
      initialState: .idle,
      reducer: reducer(dependencies: dependencies),
      eventSources: eventSources(dependencies: dependencies)
    )
  }
}
