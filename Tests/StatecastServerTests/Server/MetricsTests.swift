import CoreMetrics
import Foundation
import Prometheus
import Statecast
import StatecastClient
import Testing

@testable import StatecastServer

/// `GET /metrics`: Prometheus text whose counters follow what the server did.
@Suite(.timeLimit(.minutes(1)))
struct MetricsTests {
  @Test func metricsCountConnectionsRoomsRepliesAndFrames() async throws {
    let fixture = try ServerFixture.start()
    fixture.server.refreshMetrics()
    let before = try rawGet(port: fixture.port, path: "/metrics")
    let connection = try await fixture.connect()
    _ = try await connection.join("ticker")
    _ = try await connection.join("room/1")
    try await connection.send(action: Ticker.ClientAction.increment, to: "ticker")
    try await connection.send(action: Ticker.ClientAction.increment, to: "ticker")
    await #expect(throws: StatecastError.self) { try await connection.join("nowhere") }
    fixture.server.refreshMetrics()
    let after = try rawGet(port: fixture.port, path: "/metrics")
    await fixture.stop()
    #expect(before.hasPrefix("HTTP/1.1 200"))
    #expect(before.lowercased().contains("content-type: text/plain; version=0.0.4"))
    #expect(before.contains("\n# TYPE statecast_actions_total counter") == false)
    #expect(after.contains("\n# TYPE statecast_actions_total counter\n"))
    #expect(after.contains("\n# TYPE statecast_action_seconds histogram\n"))
    let was = Self.samples(before)
    let now = Self.samples(after)
    #expect(was["statecast_connections_open"] == 0)
    #expect(now["statecast_connections_open"] == 1)
    #expect(now[#"statecast_sessions{state="live"}"#] == 1)
    #expect(now[#"statecast_sessions{state="grace"}"#] == 0)
    #expect(now[#"statecast_actions_total{route="ticker",outcome="ok"}"#] == 2)
    #expect(now["statecast_action_seconds_count"] == 2)
    #expect(now[#"statecast_action_seconds_bucket{le="+Inf"}"#] == 2)
    #expect(now[#"statecast_action_seconds_bucket{le="0.0001"}"#] != nil)
    #expect(now["statecast_rooms"] == 1)
    #expect(now[#"statecast_messages_received_total{op="action"}"#] == 2)
    #expect(now[#"statecast_messages_received_total{op="join"}"#] == 3)
    #expect(now[#"statecast_replies_total{status="ok"}"#] == 4)
    #expect(now[#"statecast_replies_total{status="error"}"#] == 1)
    #expect(now[#"statecast_error_replies_total{code="unknown_topic"}"#] == 1)
    #expect((now["statecast_frames_out_total"] ?? 0) >= 7)
    #expect((now["statecast_bytes_out_total"] ?? 0) > (was["statecast_bytes_out_total"] ?? 0))
  }

  /// Scrapes and the timed refresh may sample at once while frames go out: counters
  /// only grow (a negative increment would stop the process), and none is lost.
  @Test func concurrentSamplesCountEveryFrameOnce() async throws {
    let fixture = try ServerFixture.start()
    let connection = try await fixture.connect()
    _ = try await connection.join("ticker")
    let server = fixture.server
    try await withThrowingTaskGroup(of: Void.self) { group in
      group.addTask {
        for _ in 0..<200 { try await connection.send(action: Ticker.ClientAction.increment, to: "ticker") }
      }
      for _ in 0..<4 {
        group.addTask { for _ in 0..<200 { server.refreshMetrics() } }
      }
      try await group.waitForAll()
    }
    // The transport counts a frame just after writing it, so the last reply can reach
    // the client a moment before its count: sample until it is in (no event says so).
    let expected = Double(3 + 2 * 200)
    var samples: [String: Double] = [:]
    for _ in 0..<200 {
      server.refreshMetrics()
      samples = Self.samples(try rawGet(port: fixture.port, path: "/metrics"))
      if samples["statecast_frames_out_total"] ?? 0 >= expected { break }
      try await Task.sleep(for: .milliseconds(5))
    }
    await fixture.stop()
    // The hello, the snapshot and the join's reply, then a patch and a reply per action.
    #expect(samples["statecast_frames_out_total"] == expected)
    #expect(samples[#"statecast_actions_total{route="ticker",outcome="ok"}"#] == 200)
  }

  /// What the app records through swift-metrics into the same registry is served too.
  @Test func anAppsOwnMetricsShareTheEndpoint() async throws {
    let registry = PrometheusCollectorRegistry()
    let fixture = try ServerFixture.start { $0.metrics = .prometheus(registry) }
    Counter(label: "app_orders_total", factory: PrometheusMetricsFactory(registry: registry)).increment(by: 3)
    fixture.server.refreshMetrics()
    let text = try rawGet(port: fixture.port, path: "/metrics")
    await fixture.stop()
    #expect(Self.samples(text)["app_orders_total"] == 3)
    #expect(Self.samples(text)["statecast_connections_open"] == 0)
  }

  /// `.off`: nothing is served at `/metrics` (it is not a route then).
  @Test func metricsOffServesNoEndpoint() async throws {
    let fixture = try ServerFixture.start { $0.metrics = .off }
    let text = try rawGet(port: fixture.port, path: "/metrics")
    await fixture.stop()
    #expect(!text.hasPrefix("HTTP/1.1 200"))
    #expect(!text.contains("statecast_"))
  }

  /// The samples of a Prometheus text response: `name{labels}` to value.
  static func samples(_ response: String) -> [String: Double] {
    let body = response.components(separatedBy: "\r\n\r\n").dropFirst().joined(separator: "\r\n\r\n")
    var samples: [String: Double] = [:]
    for line in body.split(separator: "\n") where !line.hasPrefix("#") {
      guard let space = line.lastIndex(of: " "), let value = Double(line[line.index(after: space)...]) else {
        continue
      }
      samples[String(line[..<space])] = value
    }
    return samples
  }
}
