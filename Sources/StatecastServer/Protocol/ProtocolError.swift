/// An error answered to a client in a `reply`, with a stable `code` from PROTOCOL.md.
///
/// Every way a client message can fail is one of these, so that no bad input reaches a
/// store and every failure has a clear answer. `message` is for people; clients branch
/// on `code`.
public struct ProtocolError: Error, Sendable, Equatable {
  public enum Code: String, Sendable {
    case badJSON = "bad_json"
    case badMessage = "bad_message"
    case unknownTopic = "unknown_topic"
    case notJoined = "not_joined"
    case badAction = "bad_action"
    case forbidden = "forbidden"
    case rateLimited = "rate_limited"
    case tooLarge = "too_large"
    case unavailable = "unavailable"
  }

  public var code: Code
  public var message: String

  public init(_ code: Code, _ message: String) {
    self.code = code
    self.message = message
  }
}
