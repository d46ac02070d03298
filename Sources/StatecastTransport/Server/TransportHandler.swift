/// Receives what happens on the transport's WebSocket connections at `/ws`.
///
/// Every method is called on the transport's service thread, one call at a time, in the
/// order things happened on each connection. They must return quickly and never block:
/// hand the work to Swift tasks (a session actor, an `AsyncStream`) and return. They may
/// call ``WebSocketTransport/send(_:to:)`` and ``WebSocketTransport/close(_:code:reason:)``.
/// Connections of the `/echo` endpoint are answered by the transport itself and never
/// reach the handler.
package protocol TransportHandler: AnyObject, Sendable {
  /// A WebSocket upgrade at `/ws` succeeded; `id` can be sent to from now on.
  func transportOpened(_ id: ConnectionID)
  /// A WebSocket upgrade at `/ws` succeeded with the identity that
  /// ``TransportConfiguration/upgradeCheck`` accepted it with (`nil` without a check).
  /// The default implementation calls ``transportOpened(_:)``.
  func transportOpened(_ id: ConnectionID, identity: (any Sendable)?)
  /// As ``transportOpened(_:identity:)``, with the peer's IP address (empty if unknown).
  /// The default implementation calls ``transportOpened(_:identity:)``.
  func transportOpened(_ id: ConnectionID, identity: (any Sendable)?, address: String)
  /// One whole text message: reassembled from its fragments, valid UTF-8, at most
  /// ``TransportConfiguration/maxMessageSize`` bytes.
  func transportReceived(_ id: ConnectionID, message: [UInt8])
  /// One whole binary message (reassembled, at most
  /// ``TransportConfiguration/maxMessageSize`` bytes). Returns whether the handler takes
  /// it; the transport closes the connection with 1003 otherwise. The default takes none.
  func transportReceived(_ id: ConnectionID, binary message: [UInt8]) -> Bool
  /// The connection sent a message larger than ``TransportConfiguration/maxMessageSize``.
  ///
  /// The transport discards it and delivers nothing more from this connection; the
  /// handler sends its error frame and then calls `close(id, code: 1009, reason:)`,
  /// which takes effect once that frame is written.
  func transportRejectedTooLarge(_ id: ConnectionID)
  /// A connection whose `send` answered `.congested` has written its whole backlog.
  func transportDrained(_ id: ConnectionID)
  /// The connection is gone (closed by either side, timed out, or shut down). Sending to
  /// `id` answers `.closed` from now on.
  func transportClosed(_ id: ConnectionID)
}

extension TransportHandler {
  /// Takes no binary message: the connection is closed with 1003. Service thread.
  package func transportReceived(_ id: ConnectionID, binary message: [UInt8]) -> Bool {
    false
  }

  /// Calls ``transportOpened(_:)``, ignoring the identity. Service thread.
  package func transportOpened(_ id: ConnectionID, identity: (any Sendable)?) {
    transportOpened(id)
  }

  /// Calls ``transportOpened(_:identity:)``, ignoring the address. Service thread.
  package func transportOpened(_ id: ConnectionID, identity: (any Sendable)?, address: String) {
    transportOpened(id, identity: identity)
  }
}
