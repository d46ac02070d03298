/// An error answered to a client in a `reply`, with a stable `code` from PROTOCOL.md.
///
/// Every way a client message can fail is one of these, so that no bad input reaches a
/// store and every failure has a clear answer. `message` is for people; clients branch
/// on `code`.
public struct ProtocolError: Error, Sendable, Equatable {
  /// The failure, as the wire protocol spells it (its raw value).
  public enum Code: String, Sendable {
    /// The message is not JSON.
    case badJSON = "bad_json"
    /// The message is JSON but not a message of the protocol.
    case badMessage = "bad_message"
    /// No route answers the topic's name.
    case unknownTopic = "unknown_topic"
    /// An action or leave for a topic the session has not joined.
    case notJoined = "not_joined"
    /// The action does not decode as the route's client action.
    case badAction = "bad_action"
    /// The route's access rule refused the join or the action.
    case forbidden = "forbidden"
    /// The connection sent more than its allowance.
    case rateLimited = "rate_limited"
    /// The message is larger than the server takes.
    case tooLarge = "too_large"
    /// The server cannot serve the topic now (its store failed, or it is draining).
    case unavailable = "unavailable"
    /// A `navigate` to a path that is none of the app's pages.
    case unknownPage = "unknown_page"
    /// An upload the topic's limits refuse (too large, a type not accepted, over the count or quota).
    case uploadRefused = "upload_refused"
    /// An upload id this session did not announce, or one that ended.
    case unknownUpload = "unknown_upload"
  }

  /// What failed; clients branch on it.
  public var code: Code
  /// A sentence for people.
  public var message: String

  /// An error with `code`, explained by `message`.
  public init(_ code: Code, _ message: String) {
    self.code = code
    self.message = message
  }
}
