import Foundation
import Testing

@testable import StatecastTransport

/// A peer that is still sending when the server closes its connection must still read
/// everything the server sent before closing, the close frame last: the server keeps
/// reading (and discarding) until the peer answers or closes, instead of closing a
/// socket with unread data, which makes the kernel send a reset.
@Suite(.timeLimit(.minutes(1)))
struct LingeringCloseTests {
  /// Sends `fragments` fragments of 16 KiB as one text message without reading, then
  /// reads until the close frame; returns the frames read.
  private func sendWithoutReading(port: Int, path: String = "/ws", fragments: Int = 64, opcode: UInt8 = 0x1)
    throws
    -> [RawWebSocket.Frame]
  {
    let socket = try RawWebSocket(port: port, path: path)
    let chunk = [UInt8](repeating: 0x61, count: 16_384)
    for index in 0..<fragments {
      do {
        try socket.writeFrame(opcode: index == 0 ? opcode : 0x0, payload: chunk, fin: index == fragments - 1)
      } catch {
        break  // the server has closed its side: stop sending, read what it sent
      }
    }
    var frames: [RawWebSocket.Frame] = []
    while let frame = try socket.readFrame(timeout: .seconds(5)) {
      frames.append(frame)
      if frame.opcode == 0x8 { break }
    }
    return frames
  }

  private static func closeCode(_ frames: [RawWebSocket.Frame]) -> UInt16? {
    guard let close = frames.last, close.opcode == 0x8, close.payload.count >= 2 else { return nil }
    return UInt16(close.payload[0]) << 8 | UInt16(close.payload[1])
  }

  @Test func aPeerStillSendingAnOversizedMessageGetsTheReplyAndThe1009CloseEveryTime() async throws {
    let fixture = try TransportFixture.start()
    for _ in 0..<20 {
      let frames = try sendWithoutReading(port: fixture.port)
      #expect(
        frames.first.map { String(decoding: $0.payload, as: UTF8.self) } == RecordingHandler.tooLargeReply)
      #expect(Self.closeCode(frames) == 1009)
    }
    await fixture.stop()
  }

  @Test func aPeerStillSendingABinaryMessageGetsThe1003CloseEveryTime() async throws {
    let fixture = try TransportFixture.start()
    for _ in 0..<20 {
      let frames = try sendWithoutReading(port: fixture.port, opcode: 0x2)
      #expect(Self.closeCode(frames) == 1003)
    }
    await fixture.stop()
  }

  @Test func anEchoPeerStillSendingAnOversizedMessageGetsThe1009CloseEveryTime() async throws {
    let fixture = try TransportFixture.start { configuration in
      configuration.echo = true
      configuration.echoMaxMessageSize = 65_536
    }
    for _ in 0..<20 {
      let frames = try sendWithoutReading(port: fixture.port, path: "/echo")
      #expect(Self.closeCode(frames) == 1009)
    }
    await fixture.stop()
  }
}
