/// A binary WebSocket message carrying bytes of an upload: the upload's id (16 bytes,
/// the 32 hex digits of its id), the offset of the first byte (8 bytes, big-endian),
/// then the bytes. See docs/PROTOCOL.md, "Uploads".
struct UploadChunk: Sendable {
  static let headerSize = 24

  let id: String
  let offset: Int
  let bytes: ArraySlice<UInt8>

  /// The chunk in `message`, or `nil` when it is too short to be one.
  init?(_ message: [UInt8]) {
    guard message.count >= Self.headerSize else { return nil }
    id = Self.hex(message[0..<16])
    var offset: UInt64 = 0
    for byte in message[16..<24] { offset = offset << 8 | UInt64(byte) }
    guard offset <= UInt64(Int.max) else { return nil }
    self.offset = Int(offset)
    bytes = message[Self.headerSize...]
  }

  static func hex(_ bytes: some Sequence<UInt8>) -> String {
    let digits = Array("0123456789abcdef".utf8)
    var text = [UInt8]()
    for byte in bytes {
      text.append(digits[Int(byte >> 4)])
      text.append(digits[Int(byte & 15)])
    }
    return String(decoding: text, as: UTF8.self)
  }
}
