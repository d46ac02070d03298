/// Sends actions back into a store from async work: effects, effect handlers and
/// event sources receive one.
///
/// Calling it waits until the store has reduced the action (not until that action's
/// own effects finish), so actions sent in sequence from one effect arrive in that
/// order. The store's `Send` delivers nothing once the work that holds it has been
/// cancelled.
///
/// ```swift
/// .run { send in
///   await send(.loadingStarted)
///   await send(.loaded(try await api.processes()))
/// }
/// ```
public struct Send<Action: Sendable>: Sendable {
  private let deliver: @Sendable (Action) async -> Void

  /// Wraps a delivery function; useful to call an ``EffectHandler`` directly in a test
  /// and collect what it sends.
  public init(_ deliver: @escaping @Sendable (Action) async -> Void) {
    self.deliver = deliver
  }

  /// Sends an action back into the store.
  public func callAsFunction(_ action: Action) async {
    await deliver(action)
  }

  /// A `Send` of a child's actions that delivers them as this `Send`'s actions.
  public func map<Child: Sendable>(_ transform: @escaping @Sendable (Child) -> Action) -> Send<Child> {
    Send<Child> { child in await self.deliver(transform(child)) }
  }
}
