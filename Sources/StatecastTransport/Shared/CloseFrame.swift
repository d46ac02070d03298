internal import CLibWebSockets

/// Rules for the close frames the server and the client send (RFC 6455 section 7.4).
package enum CloseFrame {
  /// `code` if an endpoint may send it (RFC 6455 and the IANA registry: 1012 service
  /// restart, 1013 try again later, 1014 bad gateway), otherwise 1011 (internal error): 1004-1006 and
  /// 1015 are reserved for reports and must never appear on the wire.
  package static func sendableCode(_ code: UInt16) -> UInt16 {
    switch code {
    case 1000...1003, 1007...1014, 3000...4999: code
    default: 1011
    }
  }

  /// The UTF-8 of `reason`, cut at a character boundary to the 123 bytes a close frame
  /// has room for (125 minus the code).
  package static func reasonBytes(_ reason: String) -> [UInt8] {
    var bytes: [UInt8] = []
    for character in reason {
      let utf8 = Array(character.utf8)
      guard bytes.count + utf8.count <= 123 else { break }
      bytes.append(contentsOf: utf8)
    }
    return bytes
  }

  /// Sets the code and reason lws sends in the close frame when `wsi` is closed next
  /// (a callback returning -1). Service thread.
  package static func setReason(_ wsi: OpaquePointer, code: UInt16, reason: String) {
    var bytes = reasonBytes(reason)
    bytes.withUnsafeMutableBufferPointer { buffer in
      lws_close_reason(wsi, lws_close_status(rawValue: UInt32(code)), buffer.baseAddress, buffer.count)
    }
  }
}
