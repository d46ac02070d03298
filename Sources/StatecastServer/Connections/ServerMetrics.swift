import Foundation

/// The server's counters and the Prometheus text `GET /metrics` answers.
///
/// Counted where the server already passes: replies (by status, errors by code) as the
/// connections send them, client messages (by `op`) as the transport delivers them; the
/// gauges are read from the registries and the transport when the text is rendered. The
/// text is rendered off the service thread (every second and after each scrape) and
/// published to the transport, which answers a scrape with the latest one.
final class ServerMetrics: @unchecked Sendable {
  // Sendable: every counter is guarded by `lock`.
  private let lock = NSLock()
  private var repliesOK = 0
  private var errorsByCode: [String: Int] = [:]
  private var messagesByOp: [String: Int] = [:]
  /// Route pattern → outcome (`ok` or an error code) → actions.
  private var actionsByRoute: [String: [String: Int]] = [:]
  private var actionLatency = LatencyHistogram()
  private var commitLatency = LatencyHistogram()
  private var collapses = 0

  /// An action on a topic of route `route` was answered with `outcome` (`ok` or an error
  /// code) after `seconds`: until its patch was queued (and, durable, stored). Any thread.
  func actionFinished(route: String, outcome: String, seconds: Double) {
    lock.withLock {
      actionsByRoute[route, default: [:]][outcome, default: 0] += 1
      if outcome == "ok" { actionLatency.record(seconds) }
    }
  }

  /// A durable store's commit took `seconds`. Any thread.
  func committed(seconds: Double) {
    lock.withLock { commitLatency.record(seconds) }
  }

  /// A slow reader's skipped patches were collapsed into `count` catch-up snapshots.
  func collapsed(_ count: Int) {
    lock.withLock { collapses += count }
  }

  /// The endpoint the transport serves `/metrics` from.
  let endpoint = MetricsEndpoint()

  /// Counts one reply frame the server sends (other frames are ignored). Any thread.
  func sent(_ frame: OutboundFrame) {
    let outcome: (ok: Bool, code: String?)? = frame.withPayload { bytes in
      guard bytes.starts(with: Self.replyHead) else { return nil }
      let head = bytes.prefix(256)
      guard let status = head.firstRange(of: Self.errorStatus) else { return (true, nil) }
      let rest = head[status.upperBound...]
      guard let code = rest.firstRange(of: Self.codeKey) else { return (false, "unknown") }
      let value = rest[code.upperBound...].prefix { $0 != UInt8(ascii: "\"") }
      return (false, String(decoding: value, as: UTF8.self))
    }
    guard let outcome else { return }
    lock.withLock {
      if let code = outcome.code { errorsByCode[code, default: 0] += 1 } else { repliesOK += 1 }
    }
  }

  /// Counts one client message by its `op` (read from its first bytes). Service thread:
  /// looks at 64 bytes at most.
  func received(_ message: [UInt8]) {
    let head = message.prefix(64)
    var op = "other"
    if let key = head.firstRange(of: Self.opKey) {
      let value = String(decoding: head[key.upperBound...].prefix { $0 != UInt8(ascii: "\"") }, as: UTF8.self)
      if Self.knownOps.contains(value) { op = value }
    }
    lock.withLock { messagesByOp[op, default: 0] += 1 }
  }

  /// The Prometheus text format (version 0.0.4) of every metric.
  func render(
    transport: TransportStatistics, connections: Int, sessions: (live: Int, inGrace: Int), rooms: Int,
    members: Int
  ) -> String {
    let (ok, errors, ops) = lock.withLock { (repliesOK, errorsByCode, messagesByOp) }
    let (actions, latency, commits, collapsed) = lock.withLock {
      (actionsByRoute, actionLatency, commitLatency, collapses)
    }
    var text = ""
    func family(_ name: String, _ type: String, _ help: String, _ samples: [(labels: String, value: Int)]) {
      text += "# HELP \(name) \(help)\n# TYPE \(name) \(type)\n"
      for sample in samples { text += "\(name)\(sample.labels) \(sample.value)\n" }
    }
    family("statecast_connections_open", "gauge", "Open WebSocket connections.", [("", connections)])
    family(
      "statecast_sessions", "gauge", "Sessions held: live (on a socket) or in grace (waiting for a resume).",
      [("{state=\"live\"}", sessions.live), ("{state=\"grace\"}", sessions.inGrace)])
    family("statecast_rooms", "gauge", "Shared topics (rooms) open.", [("", rooms)])
    family(
      "statecast_topic_members", "gauge", "Memberships of topics (a session in a topic).", [("", members)])
    family(
      "statecast_actions_total", "counter", "Actions answered, by route and outcome (ok or an error code).",
      actions.sorted { $0.key < $1.key }.flatMap { route, outcomes in
        outcomes.sorted { $0.key < $1.key }.map {
          (labels: "{route=\"\(Self.escaped(route))\",outcome=\"\(Self.escaped($0.key))\"}", value: $0.value)
        }
      })
    family(
      "statecast_slow_reader_collapses_total", "counter",
      "Catch-up snapshots sent to slow readers instead of the patches they skipped.", [("", collapsed)])
    text += "# HELP statecast_action_seconds Action until its patch is queued (and stored, when durable).\n"
    text += "# TYPE statecast_action_seconds histogram\n" + latency.lines("statecast_action_seconds")
    text += "# HELP statecast_commit_seconds A durable store's commit (group commits included).\n"
    text += "# TYPE statecast_commit_seconds histogram\n" + commits.lines("statecast_commit_seconds")
    family(
      "statecast_messages_received_total", "counter", "Client messages received, by op.",
      ops.sorted { $0.key < $1.key }.map { ("{op=\"\($0.key)\"}", $0.value) })
    family(
      "statecast_replies_total", "counter", "Replies sent (joins, actions, leaves, hellos), by status.",
      [("{status=\"ok\"}", ok), ("{status=\"error\"}", errors.values.reduce(0, +))])
    family(
      "statecast_error_replies_total", "counter", "Error replies sent, by error code.",
      errors.sorted { $0.key < $1.key }.map { ("{code=\"\(Self.escaped($0.key))\"}", $0.value) })
    family(
      "statecast_closes_total", "counter", "Close frames the server sent, by close code.",
      transport.closesByCode.sorted { $0.key < $1.key }.map { ("{code=\"\($0.key)\"}", $0.value) })
    family("statecast_frames_out_total", "counter", "WebSocket frames written.", [("", transport.framesOut)])
    family(
      "statecast_bytes_out_total", "counter", "WebSocket payload bytes written.", [("", transport.bytesOut)])
    family(
      "statecast_slow_reader_closes_total", "counter", "Connections closed for reading too slowly.",
      [("", transport.slowReaderCloses)])
    family(
      "statecast_refused_upgrades_total", "counter", "WebSocket upgrades refused, by HTTP status.",
      transport.refusedUpgrades.sorted { $0.key < $1.key }.map { ("{status=\"\($0.key)\"}", $0.value) })
    family(
      "statecast_connection_limit_refusals_total", "counter",
      "WebSocket upgrades refused by the connection limits (total or per address).",
      [("", transport.connectionLimitRefusals)])
    return text
  }

  private static func escaped(_ value: String) -> String {
    value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
      .replacingOccurrences(of: "\n", with: "\\n")
  }

  private static let replyHead = Array(#"{"op":"reply","#.utf8)
  private static let errorStatus = Array(#""status":"error""#.utf8)
  private static let codeKey = Array(#""code":""#.utf8)
  private static let opKey = Array(#""op":""#.utf8)
  private static let knownOps: Set<String> = ["hello", "join", "action", "leave", "presence"]
}

/// A frame sink that counts the replies it passes on.
struct CountingSink: FrameSink {
  let base: any FrameSink
  let metrics: ServerMetrics

  func send(_ frame: OutboundFrame, to connection: ConnectionID) -> SendOutcome {
    metrics.sent(frame)
    return base.send(frame, to: connection)
  }

  func broadcast(_ frame: OutboundFrame, to connections: [ConnectionID]) -> BroadcastOutcome {
    base.broadcast(frame, to: connections)
  }

  func close(_ connection: ConnectionID, code: UInt16, reason: String) {
    base.close(connection, code: code, reason: reason)
  }
}
