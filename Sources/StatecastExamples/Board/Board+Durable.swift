public import Statecast

extension Board: DurableFeature {
  public static var initialState: State { State() }

  public static func makeStore(
    dependencies: Dependencies, state: State, commit: (@Sendable (Commit<State>) async throws -> Void)?
  ) -> Store<State, Action> {
    Store(initialState: state, reducer: undoableReducer(dependencies: dependencies), commit: commit)
  }
}
