internal import CLibWebSockets

/// One WebSocket frame a client connection will write: its payload (with the headroom
/// lws needs) and its `lws_write` flags.
///
/// Why owned per send (unlike the server's shared frames): a client masks its payload,
/// and lws applies the mask in place, so the buffer is spent by its one write.
struct ClientFrame: Sendable {
  /// The `lws_write_protocol` flags: opcode, plus `LWS_WRITE_NO_FIN` for a fragment
  /// that is not the last.
  let flags: UInt32
  /// The payload; written (masked) in place by lws on the service thread.
  let payload: OutboundFrame

  /// The frames of one message: text or binary, split into `fragments` with the right
  /// continuation opcodes and FIN bits.
  static func message(_ fragments: [[UInt8]], binary: Bool) -> [ClientFrame] {
    let parts = fragments.isEmpty ? [[]] : fragments
    return parts.enumerated().map { index, part in
      var flags =
        index == 0
        ? (binary ? LWS_WRITE_BINARY.rawValue : LWS_WRITE_TEXT.rawValue) : LWS_WRITE_CONTINUATION.rawValue
      if index < parts.count - 1 { flags |= LWS_WRITE_NO_FIN.rawValue }
      return ClientFrame(flags: flags, payload: OutboundFrame(kind: binary ? .binary : .text, bytes: part))
    }
  }
}
