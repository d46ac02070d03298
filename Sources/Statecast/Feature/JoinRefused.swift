/// Thrown by a feature's `makeStore` to refuse a join with a reason the browser may see.
///
/// The join is answered `forbidden` with `reason` as its message. Any other error a
/// `makeStore` throws is logged on the server and answered `forbidden` with a generic
/// message, so that internal details never reach a browser.
///
/// ```swift
/// static func makeStore(dependencies: Boards, join: Join) async throws -> Store<State, Action> {
///   guard let board = try await dependencies.find(join.pathParameters["id"] ?? "") else {
///     throw JoinRefused("there is no such board")
///   }
///   return Store(initialState: board, reducer: reducer())
/// }
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
