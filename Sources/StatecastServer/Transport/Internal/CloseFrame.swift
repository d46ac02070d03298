/// Rules for the close frames the server sends (RFC 6455 section 7.4).
enum CloseFrame {
  /// `code` if a server may send it, otherwise 1011 (internal error): 1004-1006 and 1015
  /// are reserved for reports and must never appear on the wire.
  static func sendableCode(_ code: UInt16) -> UInt16 {
    switch code {
    case 1000...1003, 1007...1011, 3000...4999: code
    default: 1011
    }
  }

  /// The UTF-8 of `reason`, cut at a character boundary to the 123 bytes a close frame
  /// has room for (125 minus the code).
  static func reasonBytes(_ reason: String) -> [UInt8] {
    var bytes: [UInt8] = []
    for character in reason {
      let utf8 = Array(character.utf8)
      guard bytes.count + utf8.count <= 123 else { break }
      bytes.append(contentsOf: utf8)
    }
    return bytes
  }
}
