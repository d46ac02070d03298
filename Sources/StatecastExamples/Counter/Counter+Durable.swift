public import Statecast

extension Counter: DurableFeature {
  public static var initialState: State { State() }

  /// A store starting from `state` (counting from zero, or what was stored); it loads
  /// the saved favourites, whichever it starts from.
  public static func makeStore(
    dependencies: Dependencies, join: Join, state: State,
    commit: (@Sendable (Commit<State>) async throws -> Void)?
  ) -> Store<State, Action> {
    Store(
      initialState: state,
      reducer: reducer(dependencies: dependencies),
      eventSources: eventSources(dependencies: dependencies),
      commit: commit
    )
  }

  /// A computation in flight died with the process that ran it: the question is asked
  /// afresh. The favourites are loaded again by the new store's event source.
  public static func restored(_ state: State) -> State {
    var state = state
    if case .computing = state.nthPrime { state.nthPrime = .notAsked }
    state.isLoadingFavorites = true
    return state
  }
}
