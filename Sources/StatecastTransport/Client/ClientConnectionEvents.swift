/// What the client engine tells the owner of one connection, in order: either
/// ``failed(_:)`` alone, or ``opened(subprotocol:)``, then messages, then ``closed(code:reason:)``.
///
/// Why a protocol: the engine (lws, its service thread and queues) lives in the transport,
/// while the public connection and its events belong to `StatecastClient`; this is the
/// one narrow port between them. Every call comes on the client's service thread and
/// must return quickly.
package protocol ClientConnectionEvents: Sendable {
  /// The upgrade succeeded; `subprotocol` is the one the server chose, if any. Frames
  /// may be sent from now on.
  func opened(subprotocol: String?)
  /// The connection or its upgrade failed (`reason` is libwebsockets' text, e.g. "HS: ws
  /// upgrade response not 101"). Nothing follows.
  func failed(_ reason: String)
  /// One whole message, its fragments reassembled.
  func received(_ message: [UInt8], binary: Bool)
  /// The connection ended: the peer's close code and reason, 1006 when it vanished
  /// without a close frame, or the code this side closed with. Nothing follows.
  func closed(code: UInt16, reason: String)
}
