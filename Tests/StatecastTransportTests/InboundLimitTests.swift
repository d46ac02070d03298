import StatecastClient
import Testing

@testable import StatecastTransport

/// What the transport accepts from a client at `/ws`: whole text messages of valid UTF-8
/// up to the size limit, reassembled from fragments.
@Suite(.timeLimit(.minutes(1)))
struct InboundLimitTests {
  @Test func aBinaryMessageClosesWith1003() async throws {
    let fixture = try TransportFixture.start()
    let connection = try await fixture.client.connect(to: fixture.wsURL)
    connection.send(binary: [1, 2, 3])
    let code = await connection.closeCode()
    let received = await fixture.handler.events.first {
      if case .received = $0 { return true }
      if case .closed = $0 { return true }
      return false
    }
    await fixture.stop()
    #expect(code == 1003)
    guard case .closed = received else {
      Issue.record("the handler must not receive a binary message, got \(String(describing: received))")
      return
    }
  }

  @Test(arguments: [[0xC3, 0x28], [0xED, 0xA0, 0x80], [0x61, 0xFF], [0xE2, 0x82]] as [[UInt8]])
  func invalidUTF8ClosesWith1007(bytes: [UInt8]) async throws {
    let fixture = try TransportFixture.start()
    let connection = try await fixture.client.connect(to: fixture.wsURL)
    connection.send(text: bytes)
    let code = await connection.closeCode()
    await fixture.stop()
    #expect(code == 1007)
  }

  @Test func invalidUTF8SplitAcrossFragmentsClosesWith1007() async throws {
    let fixture = try TransportFixture.start()
    let connection = try await fixture.client.connect(to: fixture.wsURL)
    connection.send(fragments: [[0x61, 0xE2], [0x28, 0x61]])
    let code = await connection.closeCode()
    await fixture.stop()
    #expect(code == 1007)
  }

  @Test func fragmentsAreReassembledIntoOneMessage() async throws {
    let fixture = try TransportFixture.start()
    let connection = try await fixture.client.connect(to: fixture.wsURL)
    let large = [UInt8](repeating: UInt8(ascii: "x"), count: 30_000)
    connection.send(fragments: [Array(#"{"a":""#.utf8), large, Array(#""}"#.utf8)])
    let message = await fixture.handler.events.first {
      if case .received = $0 { return true }
      return false
    }
    await fixture.stop()
    #expect(message.flatMap(Self.bytes) == Array(#"{"a":""#.utf8) + large + Array(#""}"#.utf8))
  }

  @Test func aMessageOfExactlyTheLimitIsDelivered() async throws {
    let fixture = try TransportFixture.start()
    let connection = try await fixture.client.connect(to: fixture.wsURL)
    let message = [UInt8](repeating: UInt8(ascii: "a"), count: 65_536)
    connection.send(text: message)
    let received = await fixture.handler.events.first {
      if case .received = $0 { return true }
      if case .tooLarge = $0 { return true }
      return false
    }
    await fixture.stop()
    #expect(received.flatMap(Self.bytes)?.count == 65_536)
  }

  @Test func oneByteOverTheLimitIsRefusedThenClosedWith1009AfterTheReply() async throws {
    let fixture = try TransportFixture.start()
    let connection = try await fixture.client.connect(to: fixture.wsURL)
    connection.send(text: [UInt8](repeating: UInt8(ascii: "a"), count: 65_537))
    connection.send(text: "after")
    var events: [WebSocketEvent] = []
    for await event in connection.events { events.append(event) }
    let handlerEvents = await Self.collect(
      fixture.handler.events, until: { if case .closed = $0 { true } else { false } })
    await fixture.stop()
    #expect(events.first == .text(Array(RecordingHandler.tooLargeReply.utf8)))
    guard case .closed(1009, _)? = events.last else {
      Issue.record("expected a 1009 close after the reply, got \(events)")
      return
    }
    #expect(handlerEvents.contains { if case .tooLarge = $0 { true } else { false } })
    #expect(!handlerEvents.contains { if case .received = $0 { true } else { false } })
  }

  @Test func theLimitAppliesAfterReassembly() async throws {
    let fixture = try TransportFixture.start { $0.maxMessageSize = 1_000 }
    let connection = try await fixture.client.connect(to: fixture.wsURL)
    let part = [UInt8](repeating: UInt8(ascii: "b"), count: 400)
    connection.send(fragments: [part, part, part])
    let code = await connection.closeCode()
    await fixture.stop()
    #expect(code == 1009)
  }

  private static func bytes(_ event: RecordingHandler.Event) -> [UInt8]? {
    if case .received(_, let bytes) = event { return bytes }
    return nil
  }

  private static func collect(
    _ events: AsyncStream<RecordingHandler.Event>, until isLast: (RecordingHandler.Event) -> Bool
  ) async -> [RecordingHandler.Event] {
    var collected: [RecordingHandler.Event] = []
    for await event in events {
      collected.append(event)
      if isLast(event) { break }
    }
    return collected
  }
}
