extension Reducer {
  /// Runs a child feature's reducer on the part of the parent state it owns.
  ///
  /// Parent actions that carry a child action (per `action`) run `child` on the state at
  /// `state`; every other action passes through untouched. The child's effects are
  /// mapped back into parent actions, so the child never knows its parent.
  ///
  /// ```swift
  /// Reducer.combine(
  ///   .scope(state: \.counter, action: .counter, child: counterReducer),
  ///   appReducer
  /// )
  /// ```
  public static func scope<ChildState, ChildAction: Sendable>(
    state toChildState: any WritableKeyPath<State, ChildState> & Sendable,
    action toChildAction: ActionPath<Action, ChildAction>,
    child: Reducer<ChildState, ChildAction>
  ) -> Self {
    Self { state, action in
      guard let childAction = toChildAction.extract(from: action) else { return .none }
      return child.reduce(into: &state[keyPath: toChildState], action: childAction)
        .map(toChildAction.embed)
    }
  }
}
