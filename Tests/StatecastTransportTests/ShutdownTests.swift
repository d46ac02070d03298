import StatecastClient
import Testing

@testable import StatecastTransport

/// Graceful shutdown: 1001 to every connection after its queued frames, then the port
/// is closed.
@Suite(.timeLimit(.minutes(1)))
struct ShutdownTests {
  @Test func shutdownClosesEveryConnectionWith1001AfterItsQueuedFrames() async throws {
    let fixture = try TransportFixture.start()
    var connections: [WebSocketConnection] = []
    var ids: [ConnectionID] = []
    for _ in 0..<3 {
      connections.append(try await fixture.client.connect(to: fixture.wsURL))
      ids.append(try await OutboundTests.openedID(fixture))
    }
    fixture.transport.send(OutboundFrame(text: "last words"), to: ids)
    await fixture.transport.shutdown()
    var endings: [[WebSocketEvent]] = []
    for connection in connections {
      var events: [WebSocketEvent] = []
      for await event in connection.events { events.append(event) }
      endings.append(events)
    }
    await #expect(throws: WebSocketClientError.self) {
      _ = try await fixture.client.connect(to: fixture.wsURL)
    }
    await fixture.stop()
    for events in endings {
      #expect(
        events == [.text(Array("last words".utf8)), .closed(code: 1001, reason: "server shutting down")])
    }
    #expect(fixture.transport.connectionCount == 0)
  }

  @Test func theHandlerIsToldEveryConnectionClosed() async throws {
    let fixture = try TransportFixture.start()
    _ = try await fixture.client.connect(to: fixture.wsURL)
    let id = try await OutboundTests.openedID(fixture)
    await fixture.transport.shutdown()
    let closed = await fixture.handler.events.first { _ in true }
    await fixture.stop()
    #expect(closed == .closed(id))
  }

  @Test func shutdownOfATransportThatNeverStartedReturns() async {
    let transport = WebSocketTransport(
      configuration: TransportConfiguration(port: 0), handler: RecordingHandler())
    await transport.shutdown()
    #expect(throws: TransportError.alreadyStarted) { try transport.start() }
  }

  @Test func shutdownTwiceReturnsBothTimes() async throws {
    let fixture = try TransportFixture.start()
    _ = try await fixture.client.connect(to: fixture.wsURL)
    await fixture.transport.shutdown()
    #expect(fixture.transport.connectionCount == 0)
    // The second call finds the transport stopped and returns at once, as it says: not
    // after its grace period, here ten minutes (the bound leaves room for a machine busy
    // with every other suite).
    let clock = ContinuousClock()
    let second = await clock.measure { await fixture.transport.shutdown(gracePeriod: .seconds(600)) }
    #expect(second < .seconds(60))
    await #expect(throws: WebSocketClientError.self) {
      _ = try await fixture.client.connect(to: fixture.wsURL)
    }
    await fixture.stop()
  }
}
