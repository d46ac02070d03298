public import Statecast

extension Board: DurableFeature {
  public static var initialState: State { State() }

  /// A store for one room, starting from `state` (an empty board, or the stored one).
  public static func makeStore(
    dependencies: Dependencies, join: Join, state: State,
    commit: (@Sendable (Commit<State>) async throws -> Void)?
  ) -> Store<State, Action> {
    Store(initialState: state, reducer: undoableReducer(dependencies: dependencies), commit: commit)
  }
}
