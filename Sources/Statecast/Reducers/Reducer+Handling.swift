extension Reducer {
  /// A reducer in the `handle(event:) -> Effect?` form: it decides the next state and
  /// returns an inert effect value, which `handler` performs.
  ///
  /// The decision stays a pure function that tests compare with `==`; the handler owns
  /// the dependencies. Errors thrown by the handler go to the store's `onError`; a
  /// handler that wants to turn failures into actions catches them and sends one.
  ///
  /// ```swift
  /// extension ProcessesState {
  ///   mutating func handle(_ action: ProcessesAction) -> ProcessesEffect? { ... }
  /// }
  /// let processes = Reducer.handling({ state, action in state.handle(action) }, with: handler)
  /// ```
  public static func handling<EffectValue: Sendable>(
    _ handle: @escaping @Sendable (_ state: inout State, _ action: Action) -> EffectValue?,
    with handler: EffectHandler<EffectValue, Action>
  ) -> Self {
    Self { state, action in
      guard let value = handle(&state, action) else { return .none }
      return .run { send in try await handler.perform(value, send: send) }
    }
  }
}
