/// A hand-made WebSocket client over a ``RawSocket``: it upgrades, then reads and writes
/// frames exactly as told. For peers no well-behaved client library would be: one that
/// never answers pings, or one that stops reading.
final class RawWebSocket: @unchecked Sendable {
  // Sendable: used by one test at a time.
  let socket: RawSocket
  private var buffer: [UInt8] = []

  struct Frame: Equatable {
    var opcode: UInt8
    var payload: [UInt8]
  }

  /// Connects and upgrades at `path`; throws unless the answer is `101`.
  init(port: Int, path: String = "/ws", receiveBuffer: Int32? = nil) throws {
    socket = try RawSocket(port: port)
    if let receiveBuffer { socket.setReceiveBuffer(receiveBuffer) }
    try socket.write(
      "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n")
    while buffer.firstRange(of: Array("\r\n\r\n".utf8)) == nil {
      let chunk = try socket.read()
      guard !chunk.isEmpty else { throw RawSocket.Failure(description: "closed during the upgrade") }
      buffer += chunk
    }
    let end = buffer.firstRange(of: Array("\r\n\r\n".utf8))!
    let head = String(decoding: buffer[..<end.lowerBound], as: UTF8.self)
    guard head.hasPrefix("HTTP/1.1 101") else {
      throw RawSocket.Failure(description: "upgrade refused: \(head)")
    }
    buffer.removeSubrange(..<end.upperBound)
  }

  /// The next frame from the server, or `nil` when the connection closed.
  func readFrame(timeout: Duration = .seconds(10)) throws -> Frame? {
    while true {
      if let frame = takeFrame() { return frame }
      let chunk = try socket.read(timeout: timeout)
      if chunk.isEmpty { return nil }
      buffer += chunk
    }
  }

  /// Sends one masked frame, with FIN set unless `fin` is false.
  func writeFrame(opcode: UInt8, payload: [UInt8], fin: Bool = true) throws {
    var frame: [UInt8] = [(fin ? 0x80 : 0) | opcode]
    let mask: [UInt8] = [0x12, 0x34, 0x56, 0x78]
    switch payload.count {
    case ..<126: frame.append(0x80 | UInt8(payload.count))
    case ..<65_536: frame += [0x80 | 126, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
    default:
      frame.append(0x80 | 127)
      frame += (0..<8).reversed().map { UInt8((payload.count >> ($0 * 8)) & 0xFF) }
    }
    frame += mask
    frame += payload.enumerated().map { $0.element ^ mask[$0.offset % 4] }
    try socket.write(frame)
  }

  private func takeFrame() -> Frame? {
    guard buffer.count >= 2 else { return nil }
    let opcode = buffer[0] & 0x0F
    var length = Int(buffer[1] & 0x7F)
    var offset = 2
    if length == 126 {
      guard buffer.count >= 4 else { return nil }
      length = Int(buffer[2]) << 8 | Int(buffer[3])
      offset = 4
    } else if length == 127 {
      guard buffer.count >= 10 else { return nil }
      length = (2..<10).reduce(0) { $0 << 8 | Int(buffer[$1]) }
      offset = 10
    }
    guard buffer.count >= offset + length else { return nil }
    let payload = Array(buffer[offset..<offset + length])
    buffer.removeSubrange(..<(offset + length))
    return Frame(opcode: opcode, payload: payload)
  }
}
