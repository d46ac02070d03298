import Foundation

/// The join a store is made for: who joined which topic, and what the browser sent with
/// it. A server hands it to ``Feature/makeStore(dependencies:join:)``, so a feature that
/// starts from the viewer (an account), from the topic's name (`board/:room`) or from
/// the join's params (the screen a link names) is served like any other, durable and
/// with its views per viewer.
///
/// A shared topic's store is made once, by its first join: its `Join` is that first
/// member's. What differs per member belongs in the view (``Feature/viewState(_:for:)``)
/// or in the actions (``Feature/embed(_:from:)``), not in the store's making.
///
/// ```swift
/// static func makeStore(dependencies: Dependencies, join: Join) -> Store<State, Action> {
///   Store(initialState: State(owner: join.viewer, room: join.pathParameters["room"] ?? ""), reducer: reducer())
/// }
/// ```
public struct Join: Sendable {
  /// The topic name as the browser sent it, e.g. `board/team-42`.
  public var topic: String
  /// Who joined: the viewer the server's authenticator gave the browser, or a guest.
  public var viewer: Viewer
  /// The segments the route's pattern captured: `["room": "team-42"]` for `board/:room`.
  public var pathParameters: [String: String]
  /// The `params` object the browser sent with its join, read as a type of the
  /// feature's choosing.
  public var params: JoinParams

  /// A join; tests make them to call a feature's `makeStore` as a server would.
  public init(
    topic: String = "", viewer: Viewer = .anonymous, pathParameters: [String: String] = [:],
    params: JoinParams = JoinParams()
  ) {
    self.topic = topic
    self.viewer = viewer
    self.pathParameters = pathParameters
    self.params = params
  }
}

/// The `params` object of a browser's join, decoded on demand into the feature's own
/// `Decodable` type, so that the feature module needs no JSON library.
///
/// ```swift
/// struct Link: Decodable { var path: String? }
/// if let path = (try? join.params.decode(Link.self))?.path { … }
/// ```
public struct JoinParams: Sendable {
  private let decoder: @Sendable (any Decodable.Type) throws -> any Decodable

  /// An empty object: what a join without params carries.
  public init() {
    self.init(encoding: [String: String]())
  }

  /// The params `value` encodes to, as a test sets them (through Foundation's JSON coders).
  public init(encoding value: some Encodable & Sendable) {
    decoder = { type in try JSONDecoder().decode(type, from: JSONEncoder().encode(value)) }
  }

  /// Params a server decodes with its own decoder: `decode` turns them into the type asked for.
  package init(decoding decode: @escaping @Sendable (any Decodable.Type) throws -> any Decodable) {
    decoder = decode
  }

  /// The params as a `Value`; throws when they do not decode as one (a bad or hostile
  /// join: refuse it, or fall back to a default).
  public func decode<Value: Decodable>(_ type: Value.Type = Value.self) throws -> Value {
    guard let value = try decoder(type) as? Value else {
      throw DecodingError.typeMismatch(
        type, DecodingError.Context(codingPath: [], debugDescription: "the params did not decode as \(type)"))
    }
    return value
  }
}
