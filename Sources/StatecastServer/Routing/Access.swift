import StatecastJSON

/// Who may join a route's topics and send which actions to them.
///
/// A refused join or action is answered with `forbidden` and changes nothing.
///
/// ```swift
/// Access<Board.ClientAction>(
///   canJoin: { join in join.params["key"]?.stringValue == "s3cret" },
///   canSend: { _, action in if case .delete = action { false } else { true } }
/// )
/// ```
public struct Access<ClientAction>: Sendable {
  /// Whether a join may proceed.
  public let canJoin: @Sendable (JoinRequest) -> Bool
  /// Whether a member (as it joined) may send an action.
  public let canSend: @Sendable (JoinRequest, ClientAction) -> Bool

  /// A rule; each part allows everything unless given.
  public init(
    canJoin: @escaping @Sendable (JoinRequest) -> Bool = { _ in true },
    canSend: @escaping @Sendable (JoinRequest, ClientAction) -> Bool = { _, _ in true }
  ) {
    self.canJoin = canJoin
    self.canSend = canSend
  }

  /// Anyone may join and send any client action.
  public static var everyone: Self { Self() }
}
