import Foundation
import StatecastClient
import Testing

@testable import StatecastTransport

/// The operator's connection limits: upgrades beyond them are answered 503 and counted.
@Suite(.timeLimit(.minutes(1)))
struct ConnectionLimitTests {
  static func refusedUpgrade(port: Int) throws -> String {
    let socket = try RawSocket(port: port)
    try socket.write(
      "GET /ws HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n")
    return String(decoding: try socket.readToEnd(), as: UTF8.self)
  }

  @Test func upgradesBeyondTheLimitAreRefusedWith503() async throws {
    let fixture = try TransportFixture.start { $0.maxConnections = 2 }
    let first = try await fixture.client.connect(to: fixture.wsURL)
    _ = try await OutboundTests.openedID(fixture)
    _ = try await fixture.client.connect(to: fixture.wsURL)
    _ = try await OutboundTests.openedID(fixture)
    let refused = try Self.refusedUpgrade(port: fixture.port)
    // Once one closes, there is room again.
    first.close()
    _ = await fixture.handler.events.first { if case .closed = $0 { true } else { false } }
    _ = try await fixture.client.connect(to: fixture.wsURL)
    let statistics = fixture.transport.statistics
    await fixture.stop()
    #expect(refused.hasPrefix("HTTP/1.1 503 Service Unavailable\r\n"))
    #expect(refused.hasSuffix("server at its connection limit: try again later\n"))
    #expect(statistics.connectionLimitRefusals == 1)
    #expect(statistics.refusedUpgrades[503] == 1)
  }

  @Test func upgradesBeyondThePerAddressLimitAreRefusedWith503() async throws {
    let fixture = try TransportFixture.start { $0.maxConnectionsPerAddress = 1 }
    _ = try await fixture.client.connect(to: fixture.wsURL)
    _ = try await OutboundTests.openedID(fixture)
    let refused = try Self.refusedUpgrade(port: fixture.port)
    let statistics = fixture.transport.statistics
    await fixture.stop()
    #expect(refused.hasPrefix("HTTP/1.1 503 "))
    #expect(refused.hasSuffix("too many connections from this address: try again later\n"))
    #expect(statistics.connectionLimitRefusals == 1)
  }

  @Test func theDefaultsAreDocumented() {
    let configuration = TransportConfiguration()
    #expect(configuration.maxConnections == 10_000)
    #expect(configuration.maxConnectionsPerAddress == 256)
  }
}
