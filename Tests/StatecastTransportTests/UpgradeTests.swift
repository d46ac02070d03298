import StatecastClient
import Testing

@testable import StatecastTransport

/// Which WebSocket upgrades the transport accepts: path, subprotocol, Origin.
@Suite(.timeLimit(.minutes(1)))
struct UpgradeTests {
  @Test func acceptsTheStatecastSubprotocol() async throws {
    let fixture = try TransportFixture.start()
    let connection = try await fixture.client.connect(to: fixture.wsURL, subprotocols: ["statecast.v1"])
    let opened = await fixture.handler.events.first { _ in true }
    await fixture.stop()
    #expect(connection.subprotocol == "statecast.v1")
    guard case .opened = opened else {
      Issue.record("expected the handler to be told, got \(String(describing: opened))")
      return
    }
  }

  @Test func picksTheStatecastSubprotocolAmongOthers() async throws {
    let fixture = try TransportFixture.start()
    let connection = try await fixture.client.connect(
      to: fixture.wsURL, subprotocols: ["chat", "statecast.v1"])
    await fixture.stop()
    #expect(connection.subprotocol == "statecast.v1")
  }

  @Test func acceptsAClientThatOffersNoSubprotocol() async throws {
    let fixture = try TransportFixture.start()
    let connection = try await fixture.client.connect(to: fixture.wsURL)
    await fixture.stop()
    #expect(connection.subprotocol == nil)
  }

  @Test func refusesAClientThatOffersOnlyOtherSubprotocols() async throws {
    let fixture = try TransportFixture.start()
    await #expect(throws: WebSocketClientError.self) {
      _ = try await fixture.client.connect(to: fixture.wsURL, subprotocols: ["chat", "mqtt"])
    }
    await fixture.stop()
  }

  @Test(arguments: ["/", "/other", "/ws/more", "/echo"])
  func refusesUpgradesAtOtherPaths(path: String) async throws {
    let fixture = try TransportFixture.start()
    await #expect(throws: WebSocketClientError.self) {
      _ = try await fixture.client.connect(to: "ws://127.0.0.1:\(fixture.port)\(path)")
    }
    await fixture.stop()
  }

  @Test func acceptsTheSameOrigin() async throws {
    let fixture = try TransportFixture.start()
    let connection = try await fixture.client.connect(
      to: fixture.wsURL, subprotocols: ["statecast.v1"], origin: "http://127.0.0.1:\(fixture.port)")
    await fixture.stop()
    #expect(connection.subprotocol == "statecast.v1")
  }

  @Test(arguments: ["http://evil.example", "http://127.0.0.1:1", "https://127.0.0.1:80", "null"])
  func refusesAnotherOrigin(origin: String) async throws {
    let fixture = try TransportFixture.start()
    await #expect(throws: WebSocketClientError.self) {
      _ = try await fixture.client.connect(to: fixture.wsURL, origin: origin)
    }
    await fixture.stop()
  }

  @Test func acceptsAnOriginOfTheAllowList() async throws {
    let fixture = try TransportFixture.start { $0.allowedOrigins = ["http://app.example:3000"] }
    let connection = try await fixture.client.connect(to: fixture.wsURL, origin: "http://app.example:3000")
    await #expect(throws: WebSocketClientError.self) {
      _ = try await fixture.client.connect(to: fixture.wsURL, origin: "http://app.example:3001")
    }
    await fixture.stop()
    #expect(connection.subprotocol == nil)
  }

  @Test func aRefusedUpgradeIsAnsweredWithAnHTTPStatus() async throws {
    let fixture = try TransportFixture.start()
    let socket = try RawSocket(port: fixture.port)
    try socket.write(
      "GET /ws HTTP/1.1\r\nHost: 127.0.0.1:\(fixture.port)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        + "Origin: http://evil.example\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
        + "Sec-WebSocket-Version: 13\r\n\r\n")
    let answer = String(decoding: try socket.read(), as: UTF8.self)
    await fixture.stop()
    #expect(answer.hasPrefix("HTTP/1.1 403"))
  }
}
