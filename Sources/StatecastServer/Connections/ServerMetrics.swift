import CoreMetrics
import Foundation
import StatecastTransport

/// The server's metrics, recorded through swift-metrics into the factory that
/// ``ServerConfiguration/metrics`` names (a Prometheus registry that `GET /metrics`
/// serves, by default).
///
/// Counted where the server already passes: actions where they are performed, replies
/// (by status, errors by code) as the connections send them, client messages (by `op`)
/// as the transport delivers them. Every second, off the service thread, ``sample(_:)``
/// sets the gauges from the registries and adds what the transport counted since the
/// last sample: the transport keeps plain counters on its own thread, so a frame costs
/// it no call into a metrics backend.
final class ServerMetrics: @unchecked Sendable {
  /// The metrics' names (README, "Metrics", says what each counts).
  enum Name {
    static let connections = "statecast_connections_open"
    static let sessions = "statecast_sessions"
    static let rooms = "statecast_rooms"
    static let members = "statecast_topic_members"
    static let actions = "statecast_actions_total"
    static let actionSeconds = "statecast_action_seconds"
    static let commitSeconds = "statecast_commit_seconds"
    static let collapses = "statecast_slow_reader_collapses_total"
    static let messages = "statecast_messages_received_total"
    static let replies = "statecast_replies_total"
    static let errorReplies = "statecast_error_replies_total"
    static let closes = "statecast_closes_total"
    static let framesOut = "statecast_frames_out_total"
    static let bytesOut = "statecast_bytes_out_total"
    static let slowReaderCloses = "statecast_slow_reader_closes_total"
    static let refusedUpgrades = "statecast_refused_upgrades_total"
    static let limitRefusals = "statecast_connection_limit_refusals_total"
  }

  /// Histogram bounds of the two latencies, from 100 µs (an in-memory action) to 1 s.
  static let latencyBuckets: [Duration] = [
    .microseconds(100), .microseconds(250), .microseconds(500), .milliseconds(1), .microseconds(2500),
    .milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(50), .milliseconds(100),
    .milliseconds(250), .seconds(1),
  ]

  private let factory: any MetricsFactory
  private let connections: Gauge
  private let sessionsLive: Gauge
  private let sessionsInGrace: Gauge
  private let rooms: Gauge
  private let members: Gauge
  private let actionSeconds: CoreMetrics.Timer
  private let commitSeconds: CoreMetrics.Timer
  private let collapses: Counter
  private let messagesByOp: [String: Counter]
  private let repliesOK: Counter
  private let repliesError: Counter
  private let framesOut: Counter
  private let bytesOut: Counter
  private let slowReaderCloses: Counter
  private let limitRefusals: Counter

  // Made on first use (their labels are open-ended), guarded by `lock`.
  private let lock = NSLock()
  private var actions: [String: Counter] = [:]
  private var errorReplies: [String: Counter] = [:]
  private var closes: [UInt16: Counter] = [:]
  private var refusedUpgrades: [Int: Counter] = [:]
  private var lastTransport = TransportStatistics()

  /// The endpoint the transport serves `/metrics` from, when metrics are rendered here.
  let endpoint: MetricsEndpoint?

  init(factory: any MetricsFactory, endpoint: MetricsEndpoint?) {
    self.factory = factory
    self.endpoint = endpoint
    connections = Gauge(label: Name.connections, factory: factory)
    sessionsLive = Gauge(label: Name.sessions, dimensions: [("state", "live")], factory: factory)
    sessionsInGrace = Gauge(label: Name.sessions, dimensions: [("state", "grace")], factory: factory)
    rooms = Gauge(label: Name.rooms, factory: factory)
    members = Gauge(label: Name.members, factory: factory)
    actionSeconds = CoreMetrics.Timer(label: Name.actionSeconds, factory: factory)
    commitSeconds = CoreMetrics.Timer(label: Name.commitSeconds, factory: factory)
    collapses = Counter(label: Name.collapses, factory: factory)
    var byOp: [String: Counter] = [:]
    for op in Self.knownOps + ["other"] {
      byOp[op] = Counter(label: Name.messages, dimensions: [("op", op)], factory: factory)
    }
    messagesByOp = byOp
    repliesOK = Counter(label: Name.replies, dimensions: [("status", "ok")], factory: factory)
    repliesError = Counter(label: Name.replies, dimensions: [("status", "error")], factory: factory)
    framesOut = Counter(label: Name.framesOut, factory: factory)
    bytesOut = Counter(label: Name.bytesOut, factory: factory)
    slowReaderCloses = Counter(label: Name.slowReaderCloses, factory: factory)
    limitRefusals = Counter(label: Name.limitRefusals, factory: factory)
  }

  /// An action on a topic of route `route` was answered with `outcome` (`ok` or an error
  /// code) after `duration`: until its patch was queued (and, durable, stored). Any thread.
  func actionFinished(route: String, outcome: String, duration: Duration) {
    counter(in: \.actions, key: route + "\u{0}" + outcome) {
      Counter(label: Name.actions, dimensions: [("route", route), ("outcome", outcome)], factory: factory)
    }.increment()
    if outcome == "ok" { actionSeconds.recordNanoseconds(duration.nanoseconds) }
  }

  /// A durable store's commit took `duration`. Any thread.
  func committed(_ duration: Duration) {
    commitSeconds.recordNanoseconds(duration.nanoseconds)
  }

  /// A slow reader's skipped patches were collapsed into `count` catch-up snapshots.
  func collapsed(_ count: Int) {
    collapses.increment(by: count)
  }

  /// Counts one reply frame the server sends (other frames are ignored). Any thread:
  /// looks at the frame's first 256 bytes at most.
  func sent(_ frame: OutboundFrame) {
    let outcome: (ok: Bool, code: String?)? = frame.withPayload { bytes in
      let head = min(bytes.count, Self.replyHead.count)
      guard Self.end(of: Self.replyHead, in: bytes, from: 0, to: head) != nil else { return nil }
      let limit = min(bytes.count, 256)
      guard let status = Self.end(of: Self.errorStatus, in: bytes, from: 0, to: limit) else {
        return (true, nil)
      }
      guard let code = Self.end(of: Self.codeKey, in: bytes, from: status, to: limit) else {
        return (false, "unknown")
      }
      let value = bytes[code..<limit].prefix { $0 != UInt8(ascii: "\"") }
      return (false, String(decoding: value, as: UTF8.self))
    }
    guard let outcome else { return }
    guard let code = outcome.code else { return repliesOK.increment() }
    repliesError.increment()
    counter(in: \.errorReplies, key: code) {
      Counter(label: Name.errorReplies, dimensions: [("code", code)], factory: factory)
    }.increment()
  }

  /// Counts one client message by its `op` (read from its first bytes). Service thread:
  /// looks at 64 bytes at most.
  func received(_ message: [UInt8]) {
    var op = "other"
    message.withUnsafeBytes { bytes in
      let limit = min(bytes.count, 64)
      guard let key = Self.end(of: Self.opKey, in: bytes, from: 0, to: limit) else { return }
      let value = String(decoding: bytes[key..<limit].prefix { $0 != UInt8(ascii: "\"") }, as: UTF8.self)
      if messagesByOp[value] != nil { op = value }
    }
    messagesByOp[op]?.increment()
  }

  /// What the gauges and the transport's counters read now.
  struct Sample {
    var transport: TransportStatistics
    var connections: Int
    var sessions: (live: Int, inGrace: Int)
    var rooms: Int
    var members: Int
  }

  /// Sets the gauges and adds the transport's counts since the last sample. Off the
  /// service thread. Samples are taken one at a time (`read` included), so the
  /// transport's counts only grow from one to the next.
  func sample(_ read: () -> Sample) {
    sampling.withLock { record(read()) }
  }

  private let sampling = NSLock()

  private func record(_ sample: Sample) {
    connections.record(sample.connections)
    sessionsLive.record(sample.sessions.live)
    sessionsInGrace.record(sample.sessions.inGrace)
    rooms.record(sample.rooms)
    members.record(sample.members)
    let now = sample.transport
    let last = lock.withLock {
      defer { lastTransport = now }
      return lastTransport
    }
    framesOut.increment(by: now.framesOut - last.framesOut)
    bytesOut.increment(by: now.bytesOut - last.bytesOut)
    slowReaderCloses.increment(by: now.slowReaderCloses - last.slowReaderCloses)
    limitRefusals.increment(by: now.connectionLimitRefusals - last.connectionLimitRefusals)
    for (code, count) in now.closesByCode where count != last.closesByCode[code] {
      counter(in: \.closes, key: code) {
        Counter(label: Name.closes, dimensions: [("code", "\(code)")], factory: factory)
      }.increment(by: count - (last.closesByCode[code] ?? 0))
    }
    for (status, count) in now.refusedUpgrades where count != last.refusedUpgrades[status] {
      counter(in: \.refusedUpgrades, key: status) {
        Counter(label: Name.refusedUpgrades, dimensions: [("status", "\(status)")], factory: factory)
      }.increment(by: count - (last.refusedUpgrades[status] ?? 0))
    }
  }

  /// The counter under `key` in one of the lazily made families, made on first use.
  private func counter<Key: Hashable>(
    in family: ReferenceWritableKeyPath<ServerMetrics, [Key: Counter]>, key: Key, make: () -> Counter
  ) -> Counter {
    lock.withLock {
      if let counter = self[keyPath: family][key] { return counter }
      let counter = make()
      self[keyPath: family][key] = counter
      return counter
    }
  }

  /// Where `needle` ends in `bytes[start..<limit]`, if it occurs there. A plain byte
  /// loop: Foundation's generic `firstRange(of:)` allocated on every call (dozens of
  /// times per message), on the service thread, in every action's round trip.
  private static func end(
    of needle: [UInt8], in bytes: UnsafeRawBufferPointer, from start: Int, to limit: Int
  )
    -> Int?
  {
    guard !needle.isEmpty, limit - start >= needle.count else { return nil }
    var index = start
    while index + needle.count <= limit {
      var matched = 0
      while matched < needle.count, bytes[index + matched] == needle[matched] { matched += 1 }
      if matched == needle.count { return index + matched }
      index += 1
    }
    return nil
  }

  private static let replyHead = Array(#"{"op":"reply","#.utf8)
  private static let errorStatus = Array(#""status":"error""#.utf8)
  private static let codeKey = Array(#""code":""#.utf8)
  private static let opKey = Array(#""op":""#.utf8)
  private static let knownOps = ["hello", "join", "action", "leave", "presence"]
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

extension Duration {
  /// The duration in whole nanoseconds (saturating).
  var nanoseconds: Int64 {
    let (seconds, attoseconds) = components
    let (whole, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
    return overflow ? .max : whole + attoseconds / 1_000_000_000
  }
}
