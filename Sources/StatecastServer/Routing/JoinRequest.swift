public import Statecast
public import StatecastJSON

/// What a route knows about a browser joining one of its topics: what its access rule
/// sees, and what the feature's `makeStore` gets of it as a `Join`.
public struct JoinRequest: Sendable {
  /// The topic name as the browser sent it, e.g. `todos/team-42`.
  public let topic: String
  /// The segments the pattern captured from the topic name, e.g. `["room": "team-42"]`
  /// for `todos/:room`.
  public let pathParameters: [String: String]
  /// The join message's `params` object as the wire carries it (an empty object when it
  /// had none).
  public let params: JSON
  /// The id of the joining browser tab's session.
  public let session: String
  /// Who is joining: the viewer the server's authenticator gave the browser's socket,
  /// or a guest.
  public let viewer: Viewer
  /// The joining socket's peer IP address, or empty when not known (a session restored
  /// after a restart, a member on another process).
  public var address = ""
  /// Whether the joining tab asked for the topic's hook events (`"events": true` in its
  /// `join`); a client that does not know events never gets one.
  public var receivesEvents = false

  /// A join as the server makes it (tests of access rules make them too).
  public init(
    topic: String, pathParameters: [String: String], params: JSON, session: String, viewer: Viewer
  ) {
    self.topic = topic
    self.pathParameters = pathParameters
    self.params = params
    self.session = session
    self.viewer = viewer
  }

  /// What the feature's `makeStore` sees of this join: its params decoded on demand,
  /// with the server's own decoder.
  var join: Join {
    let params = self.params
    return Join(
      topic: topic, viewer: viewer, pathParameters: pathParameters,
      params: JoinParams(decoding: { type in try JSONValueDecoder().decode(type, from: params) }))
  }
}
