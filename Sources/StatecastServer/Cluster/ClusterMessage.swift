import Foundation
import Statecast
import StatecastJSON

/// What the processes of a cluster say to each other about a room, through the
/// ``ClusterBackplane``.
///
/// A room's owner runs its store; a *follower* (a process with members of the room but
/// not its lease) forwards its members' joins, actions, presence and comings and goings
/// to the owner, and the owner sends back the frames for those members, already encoded,
/// with the connections (on the follower) they go to. Answers name the request they
/// answer by `ref`. Because one node's messages to another arrive in order, a frame the
/// owner queued before answering an action reaches the follower's socket before the
/// answer does: the reply still follows its patch, as PROTOCOL.md promises.
enum ClusterMessage: Sendable, Equatable {
  /// A member on `node` joins (or rejoins) `request.topic`; answered with `answer`.
  case join(ref: Int64, node: String, connection: UInt64, request: RemoteJoin)
  /// A member's action, answered with `answer` once the owner's store has run it (and,
  /// for a durable room, stored the change).
  case action(
    ref: Int64, node: String, room: String, session: String, action: JSON, key: String?,
    creator: RoomCreator?)
  /// The answer to `join` or `action`: `nil` for ok, else the error code and message,
  /// or ``Answer/notOwner`` when the receiver does not (or no longer) own the room.
  case answer(ref: Int64, error: Answer?)
  /// The member's socket on `node` is gone (`connection`), or it is back on one.
  case detach(node: String, room: String, session: String, connection: UInt64)
  case reattach(node: String, room: String, session: String, connection: UInt64, rev: Int?)
  /// The member's socket drained after congestion: it needs a fresh snapshot.
  case resync(node: String, room: String, session: String)
  /// The member left the room (or its session expired) on `node`.
  case leave(node: String, room: String, session: String)
  /// What the member publishes about itself.
  case presence(node: String, room: String, session: String, meta: JSON)
  /// The owner (`node`) may have missed messages (its listening connection came back):
  /// the receiver answers with ``members(node:room:sessions:)``.
  case census(node: String, room: String)
  /// Every member `node` has in `room` now; the owner removes those of `node` it still
  /// holds but the list does not name (their `leave` was lost).
  case members(node: String, room: String, sessions: [String])
  /// A frame for `connections` on the receiving node.
  case frame(connections: [UInt64], payload: [UInt8])

  /// What went wrong with a forwarded request.
  struct Answer: Sendable, Equatable, Codable {
    var code: String
    var message: String

    static let notOwner = Answer(code: "not_owner", message: "this process does not own the room")
  }

  /// A ``JoinRequest`` as it travels.
  struct RemoteJoin: Sendable, Equatable, Codable {
    var topic: String
    /// The request's `pathParameters`, under the key processes already exchange.
    var parameters: [String: String]
    var params: JSON
    var session: String
    var viewer: Viewer
    /// Whether the member's tab asked for hook events (absent from older processes).
    var receivesEvents: Bool?

    init(_ request: JoinRequest) {
      (topic, parameters, params, session, viewer) = (
        request.topic, request.pathParameters, request.params, request.session, request.viewer
      )
      receivesEvents = request.receivesEvents
    }

    var request: JoinRequest {
      var request = JoinRequest(
        topic: topic, pathParameters: parameters, params: params, session: session, viewer: viewer)
      request.receivesEvents = receivesEvents ?? false
      return request
    }
  }
}

// MARK: Encoding

/// How messages travel: a batch of messages separated by ASCII record separators (0x1E,
/// which JSON text never contains unescaped); each message is a JSON header, and a
/// frame's payload follows its header after a newline, as the bytes the browser gets
/// (not escaped into a string, so relaying a frame costs a copy, not a re-encoding).
extension ClusterMessage {
  private static let separator: UInt8 = 0x1E
  private static let newline = UInt8(ascii: "\n")

  /// The messages as one backplane payload.
  static func encode(_ messages: [ClusterMessage]) -> String {
    var bytes: [UInt8] = []
    for (index, message) in messages.enumerated() {
      if index > 0 { bytes.append(separator) }
      switch message {
      case .frame(_, let payload):
        bytes += message.header.serialized()
        bytes.append(newline)
        bytes += payload
      default:
        bytes += message.header.serialized()
      }
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  /// The messages of one backplane payload; a malformed message is skipped (reported in
  /// `malformed`), the others are kept.
  static func decode(_ payload: String) -> (messages: [ClusterMessage], malformed: Int) {
    var messages: [ClusterMessage] = []
    var malformed = 0
    for record in Array(payload.utf8).split(separator: separator, omittingEmptySubsequences: true) {
      let header: ArraySlice<UInt8>
      let body: ArraySlice<UInt8>?
      if let newline = record.firstIndex(of: newline) {
        header = record[..<newline]
        body = record[(newline + 1)...]
      } else {
        (header, body) = (record, nil)
      }
      guard let json = try? JSON(parsing: header), let message = ClusterMessage(header: json, body: body)
      else {
        malformed += 1
        continue
      }
      messages.append(message)
    }
    return (messages, malformed)
  }

  private var header: JSON {
    func object(_ kind: String, _ fields: JSONObject) -> JSON {
      var fields = fields
      fields["kind"] = .string(kind)
      return .object(fields)
    }
    switch self {
    case .join(let ref, let node, let connection, let request):
      return object(
        "join",
        [
          "ref": .int(ref), "node": .string(node), "connection": .string(String(connection)),
          "request": (try? JSONValueEncoder().encode(request)) ?? .null,
        ])
    case .action(let ref, let node, let room, let session, let action, let key, let creator):
      return object(
        "action",
        [
          "ref": .int(ref), "node": .string(node), "room": .string(room), "session": .string(session),
          "action": action, "key": key.map(JSON.string) ?? .null,
          "viewer": creator.map { .string($0.viewer) } ?? .null,
          "address": creator.map { .string($0.address) } ?? .null,
        ]
      )
    case .answer(let ref, let error):
      var fields: JSONObject = ["ref": .int(ref)]
      if let error {
        fields["error"] = .object(["code": .string(error.code), "message": .string(error.message)])
      }
      return object("answer", fields)
    case .detach(let node, let room, let session, let connection):
      return object(
        "detach",
        [
          "node": .string(node), "room": .string(room), "session": .string(session),
          "connection": .string(String(connection)),
        ])
    case .reattach(let node, let room, let session, let connection, let rev):
      var fields: JSONObject = [
        "node": .string(node), "room": .string(room), "session": .string(session),
        "connection": .string(String(connection)),
      ]
      if let rev { fields["rev"] = .int(Int64(rev)) }
      return object("reattach", fields)
    case .resync(let node, let room, let session):
      return object("resync", ["node": .string(node), "room": .string(room), "session": .string(session)])
    case .leave(let node, let room, let session):
      return object("leave", ["node": .string(node), "room": .string(room), "session": .string(session)])
    case .presence(let node, let room, let session, let meta):
      return object(
        "presence", ["node": .string(node), "room": .string(room), "session": .string(session), "meta": meta])
    case .census(let node, let room):
      return object("census", ["node": .string(node), "room": .string(room)])
    case .members(let node, let room, let sessions):
      return object(
        "members",
        ["node": .string(node), "room": .string(room), "sessions": .array(sessions.map { .string($0) })])
    case .frame(let connections, _):
      return object("frame", ["connections": .array(connections.map { .string(String($0)) })])
    }
  }

  private init?(header json: JSON, body: ArraySlice<UInt8>?) {
    guard case .object(let fields) = json else { return nil }
    func string(_ key: String) -> String? { fields[key]?.stringValue }
    func int(_ key: String) -> Int64? { fields[key]?.int64Value }
    func connection() -> UInt64? { string("connection").flatMap { UInt64($0) } }
    switch string("kind") {
    case "frame":
      guard let connections = fields["connections"]?.arrayValue, let body else { return nil }
      let ids = connections.compactMap { $0.stringValue.flatMap { UInt64($0) } }
      guard ids.count == connections.count else { return nil }
      self = .frame(connections: ids, payload: Array(body))
    case "join":
      guard let ref = int("ref"), let node = string("node"), let connection = connection(),
        let encoded = fields["request"],
        let request = try? JSONValueDecoder().decode(RemoteJoin.self, from: encoded)
      else { return nil }
      self = .join(ref: ref, node: node, connection: connection, request: request)
    case "action":
      guard let ref = int("ref"), let node = string("node"), let room = string("room"),
        let session = string("session"), let action = fields["action"]
      else { return nil }
      let creator = string("viewer").flatMap { viewer in
        string("address").map { RoomCreator(viewer: viewer, address: $0) }
      }
      self = .action(
        ref: ref, node: node, room: room, session: session, action: action, key: string("key"),
        creator: creator)
    case "answer":
      guard let ref = int("ref") else { return nil }
      let error = fields["error"].flatMap { error -> Answer? in
        guard let code = error.objectValue?["code"]?.stringValue else { return nil }
        return Answer(code: code, message: error.objectValue?["message"]?.stringValue ?? "")
      }
      self = .answer(ref: ref, error: error)
    case "detach":
      guard let node = string("node"), let room = string("room"), let session = string("session"),
        let connection = connection()
      else { return nil }
      self = .detach(node: node, room: room, session: session, connection: connection)
    case "reattach":
      guard let node = string("node"), let room = string("room"), let session = string("session"),
        let connection = connection()
      else { return nil }
      self = .reattach(
        node: node, room: room, session: session, connection: connection, rev: int("rev").map { Int($0) })
    case "resync":
      guard let node = string("node"), let room = string("room"), let session = string("session") else {
        return nil
      }
      self = .resync(node: node, room: room, session: session)
    case "leave":
      guard let node = string("node"), let room = string("room"), let session = string("session") else {
        return nil
      }
      self = .leave(node: node, room: room, session: session)
    case "presence":
      guard let node = string("node"), let room = string("room"), let session = string("session"),
        let meta = fields["meta"]
      else { return nil }
      self = .presence(node: node, room: room, session: session, meta: meta)
    case "census":
      guard let node = string("node"), let room = string("room") else { return nil }
      self = .census(node: node, room: room)
    case "members":
      guard let node = string("node"), let room = string("room"), case .array(let list)? = fields["sessions"]
      else {
        return nil
      }
      let sessions = list.compactMap(\.stringValue)
      guard sessions.count == list.count else { return nil }
      self = .members(node: node, room: room, sessions: sessions)
    default:
      return nil
    }
  }
}
