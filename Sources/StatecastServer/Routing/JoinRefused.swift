/// Thrown by a route's store factory to refuse a join with a reason the browser may see.
///
/// The join is answered `forbidden` with `reason` as its message. Any other error a
/// factory throws is logged on the server and answered `forbidden` with a generic
/// message, so that internal details never reach a browser.
///
/// ```swift
/// .shared("board/:id", clientAction: Board.ClientAction.self, embed: Board.Action.client,
///         view: Board.viewState, store: { join in
///   guard let board = try await boards.find(join.parameters["id"]!) else {
///     throw JoinRefused("there is no such board")
///   }
///   return Board.makeStore(board)
/// })
/// ```
public struct JoinRefused: Error, Sendable, CustomStringConvertible {
  /// Why, as the refused browser is told.
  public let reason: String

  /// A refusal saying `reason`.
  public init(_ reason: String) {
    self.reason = reason
  }

  /// The reason.
  public var description: String { reason }
}
