import Statecast
import Testing

/// The first state of `store` that satisfies `predicate`, or `nil` (with a recorded
/// issue) when none arrives within `timeout` of real time; so that a broken feature
/// fails its test instead of hanging the test run.
func firstState<State: Sendable, Action: Sendable>(
  of store: Store<State, Action>,
  where predicate: @escaping @Sendable (State) -> Bool,
  timeout: Duration = .seconds(30),
  sourceLocation: SourceLocation = #_sourceLocation
) async -> State? {
  let found = await withTaskGroup(of: State?.self) { group in
    group.addTask {
      for await state in store.states where predicate(state) { return state }
      return nil
    }
    group.addTask {
      try? await ContinuousClock().sleep(for: timeout)
      return nil
    }
    let first = await group.next() ?? nil
    group.cancelAll()
    return first
  }
  if found == nil {
    Issue.record("No state matching the predicate within \(timeout).", sourceLocation: sourceLocation)
  }
  return found
}
