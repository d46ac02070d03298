/// An error answer of a Statecast server, or the end of the connection a request was
/// waiting on.
///
/// `code` is the wire protocol's stable code (`unknown_topic`, `not_joined`,
/// `bad_action`, `forbidden`, `rate_limited`, ...), plus two of this client's own:
/// `connection_closed` (the socket ended before the answer) and `bad_message` for an
/// answer the client could not read.
public struct StatecastError: Error, Sendable, Equatable, CustomStringConvertible {
  public var code: String
  public var message: String

  public init(code: String, message: String) {
    self.code = code
    self.message = message
  }

  /// The socket closed before the server answered.
  static func connectionClosed(_ detail: String) -> Self {
    StatecastError(code: "connection_closed", message: detail)
  }

  public var description: String { "\(code): \(message)" }
}
