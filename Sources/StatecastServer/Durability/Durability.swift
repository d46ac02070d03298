/// How a route keeps its stores: declared with `durability:` on a route of a
/// `DurableFeature`.
///
/// A durable shared topic (a room) journals every change on disk before the change is
/// published: its `ok` reply means the change survives a crash, and a restart finds the
/// room as it was. Per-tab stores of a durable route are saved with their session, at
/// an interval and when the server drains, so a tab that reconnects after a deploy
/// finds its state. See docs/DURABILITY.md.
///
/// ```swift
/// .shared("counter/:room", Counter.self, dependencies: live, durability: .durable)
/// .shared("board/:room", Board.self, dependencies: live, durability: .durable(ifStateNoLongerDecodes: .refuseJoin))
/// ```
public struct Durability: Sendable {
  /// What to do when a stored state no longer decodes as the feature's `State` (the
  /// app's `State` changed): the error is logged with the topic either way, and the
  /// stored data is never overwritten silently.
  public enum UndecodablePolicy: Sendable {
    /// Start from the feature's initial state; the old state is archived, not lost.
    case startFresh
    /// Refuse joins of that topic with `forbidden` until an operator steps in.
    case refuseJoin
  }

  let ifUndecodable: UndecodablePolicy

  /// Durable, starting fresh when a stored state no longer decodes.
  public static let durable = Durability(ifUndecodable: .startFresh)

  /// Durable, with the given policy for a stored state that no longer decodes.
  public static func durable(ifStateNoLongerDecodes policy: UndecodablePolicy) -> Durability {
    Durability(ifUndecodable: policy)
  }
}
