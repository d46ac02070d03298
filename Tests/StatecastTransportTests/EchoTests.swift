import StatecastClient
import Testing

@testable import StatecastTransport

/// The optional `/echo` endpoint, answered by the transport itself.
@Suite(.timeLimit(.minutes(1)))
struct EchoTests {
  @Test func echoesTextAndBinaryMessagesInOrder() async throws {
    let fixture = try TransportFixture.start { $0.echo = true }
    let connection = try await fixture.client.connect(to: fixture.echoURL)
    connection.send(text: "one")
    connection.send(binary: [0, 1, 2, 255])
    connection.send(fragments: [Array("fr".utf8), Array("ag".utf8)])
    var iterator = connection.events.makeAsyncIterator()
    let first = await iterator.next()
    let second = await iterator.next()
    let third = await iterator.next()
    await fixture.stop()
    #expect(first == .text(Array("one".utf8)))
    #expect(second == .binary([0, 1, 2, 255]))
    #expect(third == .text(Array("frag".utf8)))
  }

  @Test func echoesMessagesLargerThanTheProtocolLimit() async throws {
    let fixture = try TransportFixture.start { $0.echo = true }
    let connection = try await fixture.client.connect(to: fixture.echoURL)
    let large = (0..<1_048_576).map { UInt8(truncatingIfNeeded: $0 % 251) }
    connection.send(binary: large)
    let echoed = await connection.nextEvent()
    await fixture.stop()
    #expect(echoed == .binary(large))
  }

  @Test func echoConnectionsNeverReachTheHandler() async throws {
    let fixture = try TransportFixture.start { $0.echo = true }
    let echo = try await fixture.client.connect(to: fixture.echoURL)
    echo.send(text: "ping")
    _ = await echo.nextEvent()
    let statecast = try await fixture.client.connect(to: fixture.wsURL)
    statecast.close()
    var seen: [RecordingHandler.Event] = []
    for await event in fixture.handler.events {
      seen.append(event)
      if case .closed = event { break }
    }
    await fixture.stop()
    #expect(seen.count == 2)
    guard case .opened(let opened) = seen.first, case .closed(let closed) = seen.last else {
      Issue.record("expected only the /ws connection's open and close, got \(seen)")
      return
    }
    #expect(opened == closed)
  }
}
