extension Reducer {
  /// Runs a child reducer on optional child state while it exists, then this reducer.
  ///
  /// A detail panel, a sheet or a signed-in session is present only part of the time.
  /// Child actions that arrive while the child state is `nil` are ignored. The child's
  /// async work is tied to its presence: when this reducer sets the child state to
  /// `nil`, the child's running effects are cancelled.
  ///
  /// ```swift
  /// let app = appCore.ifLet(\.detail, action: .detail, then: detailReducer)
  /// ```
  public func ifLet<ChildState, ChildAction: Sendable>(
    _ toChildState: any WritableKeyPath<State, ChildState?> & Sendable,
    action toChildAction: ActionPath<Action, ChildAction>,
    then child: Reducer<ChildState, ChildAction>
  ) -> Self {
    let childEffects = PresentedChild(keyPath: toChildState)
    return Self { state, action in
      var childEffect = Effect<Action>.none
      if let childAction = toChildAction.extract(from: action), state[keyPath: toChildState] != nil {
        childEffect = child.reduce(into: &state[keyPath: toChildState]!, action: childAction)
          .map(toChildAction.embed)
          .cancellable(id: childEffects)
      }
      let wasPresent = state[keyPath: toChildState] != nil
      let effect = self.reduce(into: &state, action: action)
      let dismissal: Effect<Action> =
        wasPresent && state[keyPath: toChildState] == nil ? .cancel(id: childEffects) : .none
      return .merge(childEffect, effect, dismissal)
    }
  }
}

/// The cancellation id of the effects of one optional child, named by its key path.
private struct PresentedChild<Root, Value>: Hashable, Sendable {
  let keyPath: any WritableKeyPath<Root, Value?> & Sendable

  static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.keyPath as AnyKeyPath == rhs.keyPath as AnyKeyPath
  }

  func hash(into hasher: inout Hasher) {
    hasher.combine(keyPath as AnyKeyPath)
  }
}
