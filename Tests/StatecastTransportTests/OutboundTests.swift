import StatecastClient
import Testing

@testable import StatecastTransport

/// Frames from the server: order, broadcast of one shared frame, close after the queue,
/// congestion and the hard limit.
@Suite(.timeLimit(.minutes(1)))
struct OutboundTests {
  @Test func framesArriveInTheOrderTheyWereSent() async throws {
    let fixture = try TransportFixture.start()
    let connection = try await fixture.client.connect(to: fixture.wsURL)
    let id = try await Self.openedID(fixture)
    for index in 0..<1_000 {
      fixture.transport.send(OutboundFrame(text: "\(index)"), to: id)
    }
    var received: [String] = []
    for await event in connection.events {
      received.append(event.text ?? "")
      if received.count == 1_000 { break }
    }
    await fixture.stop()
    #expect(received == (0..<1_000).map(String.init))
  }

  /// Frames queued together are written together (one `send()` for a batch): every
  /// length form of the header (7-bit, 16-bit, 64-bit), both kinds, empty frames, and
  /// more than one batch's worth, arrive whole and in order.
  @Test func framesQueuedTogetherArriveWholeAndInOrder() async throws {
    let fixture = try TransportFixture.start()
    let connection = try await fixture.client.connect(to: fixture.wsURL)
    let id = try await Self.openedID(fixture)
    let sizes = [0, 1, 125, 126, 127, 300, 65_535, 65_536, 70_000, 5, 16_000, 16_383, 2, 20_000, 0, 9]
    let sent: [WebSocketEvent] = sizes.enumerated().map { index, size in
      let bytes = (0..<size).map { UInt8(ascii: "a") + UInt8((index + $0) % 26) }
      return index % 3 == 2 ? .binary(bytes) : .text(bytes)
    }
    let frames = sent.map { event -> OutboundFrame in
      switch event {
      case .binary(let bytes): OutboundFrame(binary: bytes)
      case .text(let bytes): OutboundFrame(text: bytes)
      case .closed: fatalError("not sent")
      }
    }
    for _ in 0..<3 {
      for frame in frames { fixture.transport.send(frame, to: id) }
    }
    var received: [WebSocketEvent] = []
    for await event in connection.events {
      received.append(event)
      if received.count == 3 * sent.count { break }
    }
    await fixture.stop()
    // Compared by summary, so that a failure prints kinds and sizes, not megabytes.
    func summary(_ events: [WebSocketEvent]) -> [String] {
      events.map { event in
        switch event {
        case .text(let bytes): "text \(bytes.count) \(bytes.reduce(0) { ($0 &* 31) &+ Int($1) })"
        case .binary(let bytes): "binary \(bytes.count) \(bytes.reduce(0) { ($0 &* 31) &+ Int($1) })"
        case .closed(let code, _): "closed \(code)"
        }
      }
    }
    #expect(summary(received) == summary(sent + sent + sent))
  }

  @Test func frameHeadersUseTheShortestLengthForm() {
    func header(_ count: Int, _ kind: OutboundFrame.Kind = .text) -> [UInt8] {
      var bytes: [UInt8] = []
      let frame = OutboundFrame(kind: kind, bytes: [UInt8](repeating: 0, count: count))
      FrameBatch.appendHeader(of: frame, to: &bytes)
      #expect(bytes.count == FrameBatch.headerLength(count))
      return bytes
    }
    #expect(header(0) == [0x81, 0])
    #expect(header(125, .binary) == [0x82, 125])
    #expect(header(126) == [0x81, 126, 0, 126])
    #expect(header(65_535) == [0x81, 126, 0xFF, 0xFF])
    #expect(header(65_536) == [0x81, 127, 0, 0, 0, 0, 0, 1, 0, 0])
  }

  @Test func oneFrameIsBroadcastToManyConnections() async throws {
    let fixture = try TransportFixture.start()
    var connections: [WebSocketConnection] = []
    var ids: [ConnectionID] = []
    for _ in 0..<25 {
      connections.append(try await fixture.client.connect(to: fixture.wsURL))
      ids.append(try await Self.openedID(fixture))
    }
    connections[24].close()
    _ = await connections[24].closeCode()
    _ = await fixture.handler.events.first { if case .closed = $0 { true } else { false } }

    let frame = OutboundFrame(text: #"{"op":"patch","rev":2}"#)
    let outcome = fixture.transport.send(frame, to: ids)
    var received: [WebSocketEvent?] = []
    for connection in connections.prefix(24) { received.append(await connection.nextEvent()) }
    await fixture.stop()
    #expect(outcome.closed == [ids[24]])
    #expect(outcome.congested.isEmpty)
    #expect(received.allSatisfy { $0 == .text(frame.payload) })
  }

  @Test func closeHappensAfterTheQueuedFrames() async throws {
    let fixture = try TransportFixture.start()
    let connection = try await fixture.client.connect(to: fixture.wsURL)
    let id = try await Self.openedID(fixture)
    for text in ["a", "b", "c"] { fixture.transport.send(OutboundFrame(text: text), to: id) }
    fixture.transport.close(id, code: 4000, reason: "session resumed elsewhere")
    let late = fixture.transport.send(OutboundFrame(text: "late"), to: id)
    var events: [WebSocketEvent] = []
    for await event in connection.events { events.append(event) }
    await fixture.stop()
    #expect(late == .closed)
    #expect(
      events == [
        .text(Array("a".utf8)), .text(Array("b".utf8)), .text(Array("c".utf8)),
        .closed(code: 4000, reason: "session resumed elsewhere"),
      ])
  }

  @Test func sendingToAClosedConnectionAnswersClosed() async throws {
    let fixture = try TransportFixture.start()
    let connection = try await fixture.client.connect(to: fixture.wsURL)
    let id = try await Self.openedID(fixture)
    connection.close()
    _ = await fixture.handler.events.first { $0 == .closed(id) }
    let outcome = fixture.transport.send(OutboundFrame(text: "x"), to: id)
    await fixture.stop()
    #expect(outcome == .closed)
  }

  @Test func aSlowReaderBecomesCongestedAndIsToldWhenDrained() async throws {
    let fixture = try TransportFixture.start {
      $0.outboundHighWatermark = 64 * 1_024
      $0.outboundHardLimit = 1 << 30
    }
    let reader = try RawWebSocket(port: fixture.port, receiveBuffer: 4_096)
    let id = try await Self.openedID(fixture)
    let frame = OutboundFrame(text: [UInt8](repeating: UInt8(ascii: "z"), count: 16_384))
    var sent = 0
    var outcome = SendOutcome.queued
    while outcome == .queued && sent < 100_000 {
      outcome = fixture.transport.send(frame, to: id)
      sent += 1
    }
    #expect(outcome == .congested)
    // Reading everything lets the server write its whole backlog.
    var read = 0
    while read < sent, let received = try reader.readFrame() {
      #expect(received.payload.count == 16_384)
      read += 1
    }
    let drained = await fixture.handler.events.first { $0 == .drained(id) }
    await fixture.stop()
    #expect(read == sent)
    #expect(drained == .drained(id))
  }

  @Test func aReaderOverTheHardLimitIsClosed() async throws {
    let fixture = try TransportFixture.start {
      $0.outboundHighWatermark = 64 * 1_024
      $0.outboundHardLimit = 256 * 1_024
    }
    let reader = try RawWebSocket(port: fixture.port, receiveBuffer: 4_096)
    let id = try await Self.openedID(fixture)
    let frame = OutboundFrame(text: [UInt8](repeating: UInt8(ascii: "z"), count: 16_384))
    var outcomes: [SendOutcome] = []
    while outcomes.last != .closed && outcomes.count < 100_000 {
      outcomes.append(fixture.transport.send(frame, to: id))
    }
    let closed = await fixture.handler.events.first { $0 == .closed(id) }
    await fixture.stop()
    #expect(outcomes.contains(.congested))
    #expect(outcomes.last == .closed)
    #expect(closed == .closed(id))
    _ = reader
  }

  @Test func aReaderOverTheHardLimitGetsA1008CloseFrameAfterWhatWasWritten() async throws {
    let fixture = try TransportFixture.start {
      $0.outboundHighWatermark = 64 * 1_024
      $0.outboundHardLimit = 256 * 1_024
    }
    for _ in 0..<5 {
      let reader = try RawWebSocket(port: fixture.port, receiveBuffer: 4_096)
      let id = try await Self.openedID(fixture)
      let frame = OutboundFrame(text: [UInt8](repeating: UInt8(ascii: "z"), count: 16_384))
      var outcome = SendOutcome.queued
      var sends = 0
      while outcome != .closed && sends < 100_000 {
        outcome = fixture.transport.send(frame, to: id)
        sends += 1
      }
      var close: [UInt8]?
      var wholeFrames = true
      while let received = try reader.readFrame(timeout: .seconds(5)) {
        if received.opcode == 0x8 {
          close = received.payload
          break
        }
        wholeFrames = wholeFrames && received.payload.count == 16_384
      }
      #expect(wholeFrames)
      #expect(close.map { Array($0.prefix(2)) } == [0x03, 0xf0])  // 1008
      #expect(close.map { String(decoding: $0.dropFirst(2), as: UTF8.self) } == "too slow")
    }
    await fixture.stop()
  }

  /// The id of the next `/ws` connection the handler is told about.
  static func openedID(_ fixture: TransportFixture) async throws -> ConnectionID {
    let event = await fixture.handler.events.first { if case .opened = $0 { true } else { false } }
    guard case .opened(let id) = event else { throw RawSocket.Failure(description: "no connection opened") }
    return id
  }
}
