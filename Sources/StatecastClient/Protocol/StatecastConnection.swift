public import StatecastJSON

/// A client of the Statecast wire protocol (PROTOCOL.md) over a ``WebSocketClient``:
/// join topics, send actions, and follow each topic's state as snapshot plus patches.
///
/// Why: tests and benchmarks drive a server the way a browser does, and a Swift program
/// (a bot, a native app, a load generator) can use a Statecast server without writing
/// the protocol again. Requests resolve on the server's `reply`; by the protocol's
/// ordering rules, the snapshot of a `join` and the patch caused by an `action` have
/// already been applied to the topic's state when they do.
///
///     let connection = try await StatecastConnection.connect(to: "ws://127.0.0.1:8080/ws")
///     let counter = try await connection.join("counter")
///     try await connection.send(action: ["increment": [:]] as JSON, to: "counter")
///     counter.state?["count"]                          // .int(1)
///     // The socket dropped? Continue the same session:
///     let resumed = try await connection.reconnect()
public final class StatecastConnection: Sendable {
  /// Where and how to connect.
  public let url: String
  private let client: WebSocketClient
  private let origin: String?
  private let allowInsecureTLS: Bool
  private let state = ConnectionState()

  private init(url: String, client: WebSocketClient, origin: String?, allowInsecureTLS: Bool) {
    self.url = url
    self.client = client
    self.origin = origin
    self.allowInsecureTLS = allowInsecureTLS
  }

  /// Opens a socket to a Statecast server's `/ws` and waits for its `hello`.
  ///
  /// - Parameters:
  ///   - url: the endpoint, e.g. `ws://127.0.0.1:8080/ws`.
  ///   - client: the WebSocket client to use (a new one by default).
  ///   - origin: an `Origin` header to send, as a browser page would.
  ///   - allowInsecureTLS: accept a self-signed certificate (`wss://` in tests).
  public static func connect(
    to url: String, client: WebSocketClient? = nil, origin: String? = nil, allowInsecureTLS: Bool = false
  ) async throws -> StatecastConnection {
    let connection = StatecastConnection(
      url: url, client: try client ?? WebSocketClient(), origin: origin, allowInsecureTLS: allowInsecureTLS)
    _ = try await connection.openSocket()
    return connection
  }

  /// The session this connection speaks for (from `hello`, or from a resume).
  public var sessionID: String? {
    state.sessionID
  }

  /// The close code of the current socket once it has closed, else `nil`.
  public var closeCode: UInt16? {
    state.closeCode
  }

  /// Waits until the current socket has closed and returns its close code (at once if it
  /// already has): the moment to ``reconnect()``.
  ///
  ///     let code = await connection.socketClosed()
  ///     if code != 1000 { _ = try await connection.reconnect() }
  public func socketClosed() async -> UInt16 {
    await withCheckedContinuation { continuation in
      state.onSocketClosed(continuation)
    }
  }

  /// Joins `topic` and returns once its snapshot has been applied. Joining a topic
  /// already joined returns the same subscription, refreshed with a new snapshot.
  ///
  /// - Throws: ``StatecastError`` with the server's code (`unknown_topic`, `forbidden`,
  ///   ...) or `connection_closed`.
  @discardableResult
  public func join(_ topic: String, params: JSON? = nil) async throws -> TopicSubscription {
    let subscription = state.subscription(for: topic)
    var message: JSONObject = ["op": "join", "topic": .string(topic)]
    if let params { message.updateValue(params, forKey: "params") }
    _ = try await request(message)
    return subscription
  }

  /// Sends one action to `topic`'s store; returns when the server acknowledged it (the
  /// patch it caused, if any, is then already applied to the subscription's state).
  ///
  /// - Parameters:
  ///   - action: any `Encodable` in the form of the route's client action type,
  ///     e.g. a Swift enum `.add(title: "Milk")` or a literal `["add": ["title": "Milk"]] as JSON`.
  ///   - idempotencyKey: 1 to 64 characters of `A-Z a-z 0-9 - _`, unique per action.
  ///     Send an action again with the same key when you cannot know whether it took
  ///     effect (the connection dropped before the reply, or the reply was
  ///     `unavailable`): the server applies it at most once.
  /// - Throws: ``StatecastError`` (`not_joined`, `bad_action`, `rate_limited`, ...).
  public func send(action: some Encodable, to topic: String, idempotencyKey: String? = nil) async throws {
    let encoded = try JSONValueEncoder().encode(action)
    var message: JSONObject = ["op": "action", "topic": .string(topic), "action": encoded]
    if let idempotencyKey { message.updateValue(.string(idempotencyKey), forKey: "key") }
    _ = try await request(message)
  }

  /// Publishes what this client wants the other members of a shared `topic` to see
  /// about it (an object: what it is editing, a cursor), under `/presence`.
  ///
  /// - Throws: ``StatecastError`` (`not_joined`, `bad_message` for a topic without
  ///   presence or a `meta` over 1,024 bytes, `rate_limited`).
  public func setPresence(_ meta: JSON, on topic: String) async throws {
    _ = try await request(["op": "presence", "topic": .string(topic), "meta": meta])
  }

  /// Stops receiving `topic`; its subscription's states end.
  public func leave(_ topic: String) async throws {
    _ = try await request(["op": "leave", "topic": .string(topic)])
    state.removeSubscription(topic)?.finish(reason: nil)
  }

  /// Opens a new socket and continues the session: `hello` with the session id and the
  /// last revision of each topic. Returns `true` if the server still held the session
  /// (missing patches or snapshots arrive before this returns), `false` if it started a
  /// fresh one (the topics are then joined again, so their states continue either way).
  public func reconnect() async throws -> Bool {
    let previous = state.sessionID
    state.socket?.close(code: 1000, reason: "reconnecting")
    _ = try await openSocket()
    guard let previous else { return false }
    var resume = JSONObject()
    for (topic, revision) in state.revisions() { resume.updateValue(.int(revision), forKey: topic) }
    let reply = try await request(["op": "hello", "session": .string(previous), "resume": .object(resume)])
    if let session = reply["session"]?.stringValue { state.setSession(session) }
    let resumed = reply["resumed"]?.boolValue ?? false
    if !resumed {
      for topic in state.topics() { _ = try await request(["op": "join", "topic": .string(topic)]) }
    }
    return resumed
  }

  /// Closes the socket (1000); pending requests fail and every subscription ends.
  public func close() {
    state.closing()
    state.socket?.close(code: 1000, reason: "")
  }

  // MARK: - Plumbing

  /// Connects a socket, starts its reader, and waits for the server's `hello`; returns
  /// the session it names.
  private func openSocket() async throws -> String {
    let socket = try await client.connect(
      to: url, subprotocols: ["statecast.v1"], origin: origin, allowInsecureTLS: allowInsecureTLS)
    return try await withCheckedThrowingContinuation { hello in
      state.adopt(socket, hello: hello)
      Task { [state] in
        for await event in socket.events {
          switch event {
          case .text(let bytes): state.handle(bytes, from: socket)
          case .binary: break
          case .closed(let code, _): state.socketClosed(socket, code: code)
          }
        }
      }
    }
  }

  /// Sends one client message with a fresh `ref` and waits for its `reply`.
  private func request(_ message: JSONObject) async throws -> JSON {
    try await withCheckedThrowingContinuation { continuation in
      var message = message
      guard let (socket, ref) = state.register(continuation) else {
        continuation.resume(throwing: StatecastError.connectionClosed("not connected"))
        return
      }
      message.updateValue(.int(ref), forKey: "ref")
      if !socket.send(text: JSON.object(message).serialized()) {
        state.fail(ref, StatecastError.connectionClosed("the socket is closed"))
      }
    }
  }
}
