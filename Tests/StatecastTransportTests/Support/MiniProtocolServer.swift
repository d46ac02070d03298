import StatecastJSON

@testable import StatecastTransport

/// A small Statecast protocol server on the bare transport, for testing the Swift
/// protocol client against exactly the behaviour the wire protocol specifies: one shared
/// `counter` topic (`{"count": n}`), actions `{"increment":{}}`, sessions that survive a
/// dropped socket, and resume from a history of patches.
///
/// Runs entirely on the transport's service thread (every handler call happens there),
/// so its state needs no lock.
final class MiniProtocolServer: TransportHandler, @unchecked Sendable {
  // Sendable: used on the transport's service thread only, after `transport` is set.
  weak var transport: WebSocketTransport?
  /// Sends the next patch with a revision one too far (a gap the client must repair).
  var skipNextRevision = false
  /// Forgets every session that is not connected (as if the grace period expired).
  var forgetDisconnectedSessions = false

  private var count: Int64 = 0
  private var revision: Int64 = 10
  private var history: [(revision: Int64, patch: JSON)] = []
  private var sessionOf: [ConnectionID: String] = [:]
  private var joined: [String: Set<String>] = [:]  // session → topics
  private var connected: Set<String> = []
  private var sessionNumber = 0

  func transportOpened(_ id: ConnectionID) {
    sessionNumber += 1
    let session = "session-\(sessionNumber)"
    sessionOf[id] = session
    connected.insert(session)
    send(["op": "hello", "session": .string(session), "server": "mini"], to: id)
  }

  func transportReceived(_ id: ConnectionID, message: [UInt8]) {
    guard let request = try? JSON(parsing: message), let op = request["op"]?.stringValue,
      var session = sessionOf[id]
    else { return }
    let ref = request["ref"] ?? .null
    switch op {
    case "hello":
      let previous = request["session"]?.stringValue ?? ""
      guard joined[previous] != nil, !connected.contains(previous), !forgetDisconnectedSessions else {
        send(
          ["op": "reply", "ref": ref, "status": "ok", "session": .string(session), "resumed": false], to: id)
        return
      }
      connected.remove(session)
      joined[session] = nil
      session = previous
      sessionOf[id] = previous
      connected.insert(previous)
      if let from = request["resume"]?["counter"]?.int64Value, joined[previous]?.contains("counter") == true {
        let missing = history.filter { $0.revision > from }
        if missing.count == Int(revision - from) {
          for entry in missing {
            send(
              ["op": "patch", "topic": "counter", "rev": .int(entry.revision), "ops": entry.patch], to: id)
          }
        } else {
          sendSnapshot(to: id)
        }
      }
      send(
        ["op": "reply", "ref": ref, "status": "ok", "session": .string(previous), "resumed": true], to: id)
    case "join":
      guard request["topic"]?.stringValue == "counter" else {
        return sendError(ref, "unknown_topic", "no route matches", to: id)
      }
      joined[session, default: []].insert("counter")
      sendSnapshot(to: id)
      send(["op": "reply", "ref": ref, "status": "ok"], to: id)
    case "action":
      guard joined[session]?.contains("counter") == true, request["topic"]?.stringValue == "counter" else {
        return sendError(ref, "not_joined", "join the topic first", to: id)
      }
      guard request["action"]?["increment"] != nil else {
        return sendError(ref, "bad_action", "unknown action", to: id)
      }
      count += 1
      revision += skipNextRevision ? 2 : 1
      skipNextRevision = false
      let patch: JSON = [["op": "replace", "path": "/count", "value": .int(count)]]
      history.append((revision, patch))
      let frame = frame(["op": "patch", "topic": "counter", "rev": .int(revision), "ops": patch])
      let members = sessionOf.filter { joined[$0.value]?.contains("counter") == true }.map(\.key)
      transport?.send(frame, to: members)
      send(["op": "reply", "ref": ref, "status": "ok"], to: id)
    case "leave":
      joined[session]?.remove(request["topic"]?.stringValue ?? "")
      send(["op": "reply", "ref": ref, "status": "ok"], to: id)
    default:
      sendError(ref, "bad_message", "unknown op", to: id)
    }
  }

  func transportRejectedTooLarge(_ id: ConnectionID) {}
  func transportDrained(_ id: ConnectionID) {}

  func transportClosed(_ id: ConnectionID) {
    if let session = sessionOf.removeValue(forKey: id) { connected.remove(session) }
  }

  private func sendSnapshot(to id: ConnectionID) {
    send(
      ["op": "snapshot", "topic": "counter", "rev": .int(revision), "state": ["count": .int(count)]], to: id)
  }

  private func sendError(_ ref: JSON, _ code: String, _ message: String, to id: ConnectionID) {
    send(
      [
        "op": "reply", "ref": ref, "status": "error",
        "error": ["code": .string(code), "message": .string(message)],
      ],
      to: id)
  }

  private func send(_ message: JSON, to id: ConnectionID) {
    transport?.send(frame(message), to: id)
  }

  private func frame(_ message: JSON) -> OutboundFrame {
    OutboundFrame(text: message.serialized())
  }
}
