import CoreMetrics
import Foundation
import StatecastTransport

/// The server's metrics, recorded through swift-metrics into the factory that
/// ``ServerConfiguration/metrics`` names (a Prometheus registry that `GET /metrics`
/// serves, by default).
///
/// Counted where the server already passes: every reply where its connection makes it
/// (``replied(_:action:since:)``: by status, errors by code, and for an action its route,
/// outcome and latency), client messages (by `op`) as the transport delivers them.
/// Every second, off the service thread, ``sample(_:)`` sets the gauges from the
/// registries and adds what the transport counted since the last sample: the transport
/// keeps plain counters on its own thread, so a frame costs it no call into a metrics
/// backend. ``MetricsPublisher`` runs the sampling and serves the text.
final class ServerMetrics: Sendable {
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

  /// The counters made on first use (their labels are open-ended).
  private struct Families: Sendable {
    var actions: [String: Counter] = [:]
    var errorReplies: [String: Counter] = [:]
    var closes: [UInt16: Counter] = [:]
    var refusedUpgrades: [Int: Counter] = [:]
  }
  private let families = Locked(Families())
  /// What the transport had counted at the last sample. Its lock is held for a whole
  /// sample, `read` included, so that samples are taken one at a time.
  private let lastTransport = Locked(TransportStatistics())

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

  /// A durable store's commit took `duration`. Any thread.
  func committed(_ duration: Duration) {
    commitSeconds.recordNanoseconds(duration.nanoseconds)
  }

  /// A slow reader's skipped patches were collapsed into `count` catch-up snapshots.
  func collapsed(_ count: Int) {
    collapses.increment(by: count)
  }

  /// Counts one reply: `ok` when `error` is `nil`, else an error reply with its code.
  /// For the reply to an action, `action` is the route pattern of its topic: the action
  /// is counted by route and outcome, and an `ok` one's time since `started` (until its
  /// patch was queued and, durable, stored) goes into the latency histogram. Any thread.
  func replied(_ error: ProtocolError.Code?, action route: String?, since started: ContinuousClock.Instant) {
    if let code = error?.rawValue {
      repliesError.increment()
      counter(in: \.errorReplies, key: code) {
        Counter(label: Name.errorReplies, dimensions: [("code", code)], factory: factory)
      }.increment()
    } else {
      repliesOK.increment()
    }
    guard let route else { return }
    let counter = actionCounter(route: route, outcome: error?.rawValue ?? "ok")
    if error == nil {
      repliedOK(action: counter, since: started)
    } else {
      counter.increment()
    }
  }

  /// Counts an `ok` reply to an action through the counter of its route and outcome,
  /// which the caller kept from ``actionCounter(route:outcome:)``: a socket acts on the
  /// same topic again and again, and finding the counter took a lock, a string and a
  /// dictionary lookup per action. Any thread.
  func repliedOK(action counter: Counter, since started: ContinuousClock.Instant) {
    repliesOK.increment()
    counter.increment()
    actionSeconds.recordNanoseconds((ContinuousClock.now - started).nanoseconds)
  }

  /// The counter of actions on `route` answered with `outcome` (`ok` or an error code),
  /// made on first use.
  func actionCounter(route: String, outcome: String) -> Counter {
    counter(in: \.actions, key: route + "\u{0}" + outcome) {
      Counter(label: Name.actions, dimensions: [("route", route), ("outcome", outcome)], factory: factory)
    }
  }

  /// Counts one client message by its `op` (read from its first bytes). Service thread:
  /// looks at 64 bytes at most.
  func received(_ message: [UInt8]) {
    let limit = min(message.count, 64)
    var op = "other"
    if let key = Self.end(of: Self.opKey, in: message, to: limit) {
      let value = String(decoding: message[key..<limit].prefix { $0 != UInt8(ascii: "\"") }, as: UTF8.self)
      if messagesByOp[value] != nil { op = value }
    }
    messagesByOp[op]?.increment()
  }

  /// Where `needle` ends in `bytes[..<limit]`, if it occurs there. A plain byte loop:
  /// Foundation's generic `firstRange(of:)` allocated on every call, on the service
  /// thread, in every message's path.
  private static func end(of needle: [UInt8], in bytes: [UInt8], to limit: Int) -> Int? {
    guard !needle.isEmpty, limit >= needle.count else { return nil }
    var index = 0
    while index + needle.count <= limit {
      var matched = 0
      while matched < needle.count, bytes[index + matched] == needle[matched] { matched += 1 }
      if matched == needle.count { return index + matched }
      index += 1
    }
    return nil
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
  func sample(_ read: () -> Sample?) {
    lastTransport.withLock { last in
      guard let sample = read() else { return }
      record(sample, since: last)
      last = sample.transport
    }
  }

  private func record(_ sample: Sample, since last: TransportStatistics) {
    connections.record(sample.connections)
    sessionsLive.record(sample.sessions.live)
    sessionsInGrace.record(sample.sessions.inGrace)
    rooms.record(sample.rooms)
    members.record(sample.members)
    let now = sample.transport
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
    in family: WritableKeyPath<Families, [Key: Counter]>, key: Key, make: () -> Counter
  ) -> Counter {
    families.withLock { families in
      if let counter = families[keyPath: family][key] { return counter }
      let counter = make()
      families[keyPath: family][key] = counter
      return counter
    }
  }

  private static let opKey = Array(#""op":""#.utf8)
  private static let knownOps = ["hello", "join", "action", "leave", "presence"]
}

extension Duration {
  /// The duration in whole nanoseconds (saturating).
  var nanoseconds: Int64 {
    let (seconds, attoseconds) = components
    let (whole, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
    return overflow ? .max : whole + attoseconds / 1_000_000_000
  }
}
