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
  /// Where ``event(_:_:to:)`` puts events: the store's outlet, or nowhere.
  private let events: HookEventOutlet?

  /// Wraps a delivery function; useful to call an ``EffectHandler`` directly in a test
  /// and collect what it sends. With `events`, ``event(_:_:to:)`` hands events to it.
  public init(_ deliver: @escaping @Sendable (Action) async -> Void, events: HookEventOutlet? = nil) {
    self.deliver = deliver
    self.events = events
  }

  /// Sends an action back into the store.
  public func callAsFunction(_ action: Action) async {
    await deliver(action)
  }

  /// Pushes an event to the page's hooks on the topic's tabs (every member, or only
  /// `viewer`'s tabs): something that is not state, never journaled nor replayed (see
  /// ``HookEvent``). Does nothing once the work that holds this `Send` was cancelled.
  public func event(_ name: String, _ payload: some Encodable & Sendable, to viewer: Viewer? = nil) {
    guard !Task.isCancelled else { return }
    events?.send(HookEvent(name: name, payload: payload, to: viewer))
  }

  /// Pushes an event without a payload (`null`); see ``event(_:_:to:)``.
  public func event(_ name: String, to viewer: Viewer? = nil) {
    event(name, JSONNull(), to: viewer)
  }

  /// A `Send` of a child's actions that delivers them as this `Send`'s actions.
  public func map<Child: Sendable>(_ transform: @escaping @Sendable (Child) -> Action) -> Send<Child> {
    Send<Child>({ child in await self.deliver(transform(child)) }, events: events)
  }
}

/// Encodes as `null`: the payload of an event that carries none.
private struct JSONNull: Encodable, Sendable {
  func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encodeNil()
  }
}
