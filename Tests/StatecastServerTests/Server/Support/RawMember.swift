import StatecastClient
import StatecastJSON
import Testing

/// A member speaking the wire protocol on a raw socket, for what `StatecastConnection`
/// hides: a socket that goes away while its session waits, and a `hello` that resumes
/// the session on a new one. Follows one topic's state through snapshots and patches.
final class RawMember {
  let socket: WebSocketConnection
  let session: String
  private var events: AsyncStream<WebSocketEvent>.AsyncIterator
  private var nextRef: Int64 = 1
  private(set) var state: JSON?
  private(set) var revision = 0
  private(set) var snapshots = 0

  private init(
    socket: WebSocketConnection, session: String, events: AsyncStream<WebSocketEvent>.AsyncIterator
  ) {
    self.socket = socket
    self.session = session
    self.events = events
  }

  static func connect(to url: String, client: WebSocketClient) async throws -> RawMember {
    let socket = try await client.connect(to: url, subprotocols: ["statecast.v1"])
    var events = socket.events.makeAsyncIterator()
    guard case .text(let bytes)? = await events.next(), let hello = try? JSON(parsing: bytes),
      let session = hello["session"]?.stringValue
    else { throw RawMemberError("no hello") }
    return RawMember(socket: socket, session: session, events: events)
  }

  func join(_ topic: String) async throws {
    _ = try await request(["op": "join", "topic": .string(topic)])
  }

  /// `hello` resuming `session` with the last revision of each topic; the server must
  /// still hold the session.
  func resume(_ session: String, at revisions: [String: Int]) async throws {
    let resume = JSONObject(uniqueKeysWithValues: revisions.map { ($0.key, JSON.int(Int64($0.value))) })
    let reply = try await request(["op": "hello", "session": .string(session), "resume": .object(resume)])
    #expect(reply["resumed"] == true)
  }

  /// Reads frames until the followed state's `count` is `count`.
  func waitForCount(_ count: Int) async throws -> Bool {
    while state?["count"] != .int(Int64(count)) { try await receive() }
    return true
  }

  private func request(_ message: JSONObject) async throws -> JSON {
    var message = message
    let ref = nextRef
    nextRef += 1
    message["ref"] = .int(ref)
    _ = socket.send(text: JSON.object(message).serialized())
    while true {
      let frame = try await receive()
      guard frame["op"] == "reply", frame["ref"] == .int(ref) else { continue }
      guard frame["status"] == "ok" else { throw RawMemberError("refused: \(frame)") }
      return frame
    }
  }

  /// The next frame; a snapshot or patch is applied to the followed state.
  @discardableResult private func receive() async throws -> JSON {
    guard case .text(let bytes)? = await events.next() else { throw RawMemberError("the socket closed") }
    let frame = try JSON(parsing: bytes)
    switch frame["op"]?.stringValue {
    case "snapshot":
      state = frame["state"]
      revision = Int(frame["rev"]?.int64Value ?? 0)
      snapshots += 1
    case "patch":
      guard var document = state else { throw RawMemberError("a patch before any snapshot") }
      try JSONPatch(json: frame["ops"] ?? .null).apply(to: &document)
      state = document
      revision = Int(frame["rev"]?.int64Value ?? 0)
    default:
      break
    }
    return frame
  }
}

struct RawMemberError: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}
