extension Reducer {
  /// Runs several reducers one after another on the same state and action, and merges
  /// their effects in the same order.
  ///
  /// Each reducer sees the state left by the ones before it.
  ///
  /// ```swift
  /// let app = Reducer.combine(.scope(state: \.counter, action: .counter, child: counter), appCore)
  /// ```
  public static func combine(_ reducers: Self...) -> Self {
    combine(reducers)
  }

  /// Runs several reducers one after another; see ``combine(_:)-(Reducer<State,Action>...)``.
  public static func combine(_ reducers: [Self]) -> Self {
    switch reducers.count {
    case 0: return .empty
    case 1: return reducers[0]
    default:
      return Self { state, action in
        var effects: [Effect<Action>] = []
        for reducer in reducers {
          let effect = reducer.reduce(into: &state, action: action)
          if !effect.isNone { effects.append(effect) }
        }
        return effects.isEmpty ? .none : .merge(effects)
      }
    }
  }

  /// Runs this reducer, then `next`; a fluent spelling of ``combine(_:)-(Reducer<State,Action>...)``.
  public func combined(with next: Self) -> Self {
    .combine(self, next)
  }
}
