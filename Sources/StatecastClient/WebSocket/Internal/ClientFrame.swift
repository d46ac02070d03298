internal import CLibWebSockets

/// One WebSocket frame a client connection will write, with the headroom lws needs.
///
/// Why owned per send (unlike the server's shared frames): a client masks its payload,
/// and lws applies the mask in place, so the buffer is spent by the write.
final class ClientFrame: @unchecked Sendable {
  // Sendable: filled in `init`, then written by the service thread alone.

  /// The `lws_write_protocol` flags: opcode, plus `LWS_WRITE_NO_FIN` for a fragment
  /// that is not the last.
  let flags: UInt32
  let count: Int
  private let storage: UnsafeMutableRawPointer
  private static let headroom = Int(statecast_lws_pre)

  init(bytes: some Collection<UInt8>, flags: UInt32) {
    self.flags = flags
    count = bytes.count
    storage = .allocate(byteCount: Self.headroom + max(count, 1), alignment: 16)
    let payload = UnsafeMutableRawBufferPointer(start: storage + Self.headroom, count: count)
    let copied: Void? = bytes.withContiguousStorageIfAvailable { payload.copyMemory(from: UnsafeRawBufferPointer($0)) }
    if copied == nil { _ = payload.initializeMemory(as: UInt8.self, from: bytes) }
  }

  /// The frames of one message: text or binary, split into `fragments` with the right
  /// continuation opcodes and FIN bits.
  static func message(_ fragments: [[UInt8]], binary: Bool) -> [ClientFrame] {
    let parts = fragments.isEmpty ? [[]] : fragments
    return parts.enumerated().map { index, part in
      var flags =
        index == 0
        ? (binary ? LWS_WRITE_BINARY.rawValue : LWS_WRITE_TEXT.rawValue) : LWS_WRITE_CONTINUATION.rawValue
      if index < parts.count - 1 { flags |= LWS_WRITE_NO_FIN.rawValue }
      return ClientFrame(bytes: part, flags: flags)
    }
  }

  deinit {
    storage.deallocate()
  }

  /// The payload, preceded by writable headroom. Service thread only (the write masks it).
  var writablePayload: UnsafeMutablePointer<UInt8> {
    (storage + Self.headroom).assumingMemoryBound(to: UInt8.self)
  }
}
