/// The pure heart of a feature: given the state and an action, it changes the state and
/// describes the effects to run next.
///
/// A reducer is synchronous and performs no side effects, so it is tested with data in
/// and data out, with no store and no mocks. Two source forms are natural:
///
/// ```swift
/// // Mutate in place and return effects (the Composable Architecture form).
/// let counter = Reducer<Counter, CounterAction> { state, action in
///   switch action {
///   case .incrementTapped: state.count += 1; return .none
///   case .factTapped: return .run { [n = state.count] send in await send(.fact(await facts(n))) }
///   case .fact(let text): state.fact = text; return .none
///   }
/// }
///
/// // Return the next state (the `Reducer (State, Action) -> State` form).
/// let fasting = Reducer<Fasting, FastingAction>.pure { state, action in
///   switch action {
///   case .started(let date): .fasting(since: date)
///   case .finished: .idle
///   }
/// }
/// ```
///
/// Effect values interpreted by a handler with dependencies (the `handle(event:)` form)
/// are written with ``Reducer/handling(_:with:)``.
public struct Reducer<State, Action: Sendable>: Sendable {
  @usableFromInline
  let body: @Sendable (inout State, Action) -> Effect<Action>

  /// Creates a reducer from a function that mutates the state and returns effects.
  public init(_ reduce: @escaping @Sendable (_ state: inout State, _ action: Action) -> Effect<Action>) {
    self.body = reduce
  }

  /// Runs the reducer: changes `state` for `action` and returns the effects to run.
  @inlinable
  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    body(&state, action)
  }

  /// A reducer from a pure function that returns the next state and has no effects.
  public static func pure(_ reduce: @escaping @Sendable (_ state: State, _ action: Action) -> State) -> Self {
    Self { state, action in
      state = reduce(state, action)
      return .none
    }
  }

  /// A reducer that never changes the state, a neutral element for ``combine(_:)-(Reducer<State,Action>...)``.
  public static var empty: Self {
    Self { _, _ in .none }
  }
}
