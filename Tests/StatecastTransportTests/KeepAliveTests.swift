import StatecastClient
import Testing

@testable import StatecastTransport

/// Pings and the idle timeout: a peer that answers pings stays, one that does not is
/// closed.
@Suite(.timeLimit(.minutes(1)))
struct KeepAliveTests {
  @Test func aPeerThatNeverAnswersPingsIsClosedWhileOneThatDoesStays() async throws {
    // Three pings' slack for the answering peer, so that a loaded machine (every suite
    // runs at once on two cores) does not make it look silent.
    let fixture = try TransportFixture.start(echoes: true) {
      $0.pingInterval = .seconds(1)
      $0.idleTimeout = .seconds(4)
    }
    let answering = try await fixture.client.connect(to: fixture.wsURL)
    let answeringID = try await OutboundTests.openedID(fixture)
    let silent = try RawWebSocket(port: fixture.port)
    let silentID = try await OutboundTests.openedID(fixture)

    var frames: [RawWebSocket.Frame] = []
    while let frame = try silent.readFrame(timeout: .seconds(10)) { frames.append(frame) }
    let closed = await fixture.handler.events.first { if case .closed = $0 { true } else { false } }

    answering.send(text: "still here")
    let echoed = await answering.nextEvent()
    await fixture.stop()
    #expect(frames.contains { $0.opcode == 0x9 })
    #expect(closed == .closed(silentID))
    #expect(closed != .closed(answeringID))
    #expect(echoed == .text(Array("still here".utf8)))
  }

  @Test func anIdlePeerGetsACloseFrame1001() async throws {
    let fixture = try TransportFixture.start {
      $0.pingInterval = .seconds(1)
      $0.idleTimeout = .seconds(2)
    }
    let silent = try RawWebSocket(port: fixture.port)
    _ = try await OutboundTests.openedID(fixture)
    let frames = try await onOwnThread { () -> [RawWebSocket.Frame] in
      var frames: [RawWebSocket.Frame] = []
      while let frame = try silent.readFrame(timeout: .seconds(20)) { frames.append(frame) }
      return frames
    }
    await fixture.stop()
    let close = frames.first { $0.opcode == 0x8 }
    #expect(close?.payload.prefix(2) == [0x03, 0xE9])  // 1001
    #expect(close.map { String(decoding: $0.payload.dropFirst(2), as: UTF8.self) } == "idle timeout")
  }

  @Test func theIdleTimeoutMustExceedThePingInterval() {
    var configuration = TransportConfiguration(port: 0)
    configuration.pingInterval = .seconds(30)
    configuration.idleTimeout = .seconds(30)
    let transport = WebSocketTransport(configuration: configuration, handler: RecordingHandler())
    #expect(throws: TransportError.self) { try transport.start() }
  }
}
