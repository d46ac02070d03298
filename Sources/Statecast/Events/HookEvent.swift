/// Something a store tells the page's hooks that is not state: "play this sound",
/// "focus this field", "show this toast".
///
/// An effect sends one with ``Send/event(_:_:to:)``. The server delivers it at once to
/// the hooks of the topic on the members' tabs (every member of a room, or only the tabs
/// of one viewer) and forgets it: an event is never journaled, never kept for a resume
/// and never replayed, so a tab that is offline when it is sent does not see it. Whatever
/// must survive belongs in the state.
///
/// ```swift
/// return .run { send in
///   await send(.saved)
///   send.event("toast", ["text": "Saved"])
/// }
/// ```
public struct HookEvent: Sendable {
  /// The name hooks listen for (`handleEvent("toast", …)` in the browser).
  public let name: String
  /// Sent as the event's `payload`, encoded like the view.
  public let payload: any Encodable & Sendable
  /// Only this viewer's tabs receive it; `nil`: every member of the topic.
  public let viewer: Viewer?

  public init(name: String, payload: any Encodable & Sendable, to viewer: Viewer? = nil) {
    self.name = name
    self.payload = payload
    self.viewer = viewer
  }
}
