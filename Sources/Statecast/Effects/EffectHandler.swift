/// Performs effect *values*: the inert descriptions a reducer returns in the
/// `handle(event:) -> Effect?` style, interpreted here with real dependencies.
///
/// Keeping the description (an app-defined enum) apart from its interpretation lets a
/// reducer test check exactly which effect was asked for, with `==`, and lets the app
/// swap the handler's dependencies in tests without touching the reducer.
///
/// ```swift
/// enum ProcessesEffect: Equatable, Sendable { case load, logOut }
/// struct ProcessesClient: Sendable { var fetch: @Sendable () async throws -> [Process] }
///
/// let handler = EffectHandler<ProcessesEffect, ProcessesAction>(dependencies: client) {
///   effect, send, client in
///   switch effect {
///   case .load: await send(.loaded(try await client.fetch()))
///   case .logOut: await send(.loggedOut)
///   }
/// }
/// ```
public struct EffectHandler<EffectValue, Action: Sendable>: Sendable {
  private let body: @Sendable (EffectValue, Send<Action>) async throws -> Void

  /// Creates a handler from a function that performs one effect value.
  public init(
    _ perform: @escaping @Sendable (_ effect: EffectValue, _ send: Send<Action>) async throws -> Void
  ) {
    self.body = perform
  }

  /// Creates a handler whose function receives `dependencies` (a struct of closures, a
  /// client, a clock) as an explicit value.
  public init<Dependencies: Sendable>(
    dependencies: Dependencies,
    _ perform:
      @escaping @Sendable (
        _ effect: EffectValue, _ send: Send<Action>, _ dependencies: Dependencies
      ) async throws -> Void
  ) {
    self.body = { effect, send in try await perform(effect, send, dependencies) }
  }

  /// Performs one effect value; errors propagate to the caller (in a store, to its
  /// `onError`).
  public func perform(_ effect: EffectValue, send: Send<Action>) async throws {
    try await body(effect, send)
  }
}
