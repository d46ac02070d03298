/// Something that arrived on a ``WebSocketConnection``.
public enum WebSocketEvent: Sendable, Equatable {
  /// One whole text message (its fragments reassembled), as UTF-8 bytes.
  case text([UInt8])
  /// One whole binary message.
  case binary([UInt8])
  /// The connection ended: the peer's close code and reason, 1006 ("abnormal closure")
  /// when it vanished without a close frame, or the code this side closed with. Always
  /// the last event.
  case closed(code: UInt16, reason: String)

  /// The text of a `.text` event, or `nil`.
  public var text: String? {
    if case .text(let bytes) = self { return String(decoding: bytes, as: UTF8.self) }
    return nil
  }
}
