import Foundation
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
    #expect(before.contains("\nstatecast_connections_open 0\n"))
    #expect(after.contains("\nstatecast_connections_open 1\n"))
    #expect(after.contains("\nstatecast_sessions{state=\"live\"} 1\n"))
    #expect(after.contains("\nstatecast_sessions{state=\"grace\"} 0\n"))
    #expect(after.contains("\nstatecast_actions_total{route=\"ticker\",outcome=\"ok\"} 2\n"))
    #expect(after.contains("\nstatecast_action_seconds_count 2\n"))
    #expect(after.contains("statecast_action_seconds_bucket{le=\"+Inf\"} 2\n"))
    #expect(after.contains("\nstatecast_rooms 1\n"))
    #expect(after.contains("\nstatecast_messages_received_total{op=\"action\"} 2\n"))
    #expect(after.contains("\nstatecast_messages_received_total{op=\"join\"} 3\n"))
    #expect(after.contains("\nstatecast_replies_total{status=\"ok\"} 4\n"))
    #expect(after.contains("\nstatecast_error_replies_total{code=\"unknown_topic\"} 1\n"))
    let frames = after.split(separator: "\n").first { $0.hasPrefix("statecast_frames_out_total ") }
    #expect((frames.flatMap { Int($0.split(separator: " ")[1]) } ?? 0) >= 7)
  }
}
