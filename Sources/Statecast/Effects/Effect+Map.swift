extension Effect {
  /// Turns the actions this effect sends into another action type.
  ///
  /// This is how a child feature's effects become its parent's: the combinators
  /// ``Reducer/scope(state:action:child:)``, ``Reducer/forEach(_:action:element:)`` and
  /// ``Reducer/ifLet(_:action:then:)`` map through the parent's ``ActionPath``.
  ///
  /// ```swift
  /// counterEffect.map(AppAction.counter)
  /// ```
  public func map<T: Sendable>(_ transform: @escaping @Sendable (Action) -> T) -> Effect<T> {
    switch operation {
    case .none:
      return .none
    case .send(let action):
      return .send(transform(action))
    case .run(let run):
      return Effect<T>(operation: .run(run.map(transform)))
    case .merge(let effects):
      return Effect<T>(operation: .merge(effects.map { $0.map(transform) }))
    case .cancellable(let id, let cancelInFlight, let effect):
      return Effect<T>(
        operation: .cancellable(id: id, cancelInFlight: cancelInFlight, effect.map(transform))
      )
    case .cancel(let id):
      return Effect<T>(operation: .cancel(id: id))
    }
  }
}

extension Effect.Run {
  /// The same work, delivering its actions through `transform`.
  fileprivate func map<T: Sendable>(_ transform: @escaping @Sendable (Action) -> T) -> Effect<T>.Run {
    let operation = self.operation
    let mappedHandler: (@Sendable (any Error, Send<T>) async -> Void)?
    if let handler = self.handler {
      mappedHandler = { error, send in await handler(error, send.map(transform)) }
    } else {
      mappedHandler = nil
    }
    return Effect<T>.Run(
      priority: priority,
      operation: { send in try await operation(send.map(transform)) },
      handler: mappedHandler
    )
  }
}
