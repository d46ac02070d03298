import StatecastTransport

/// The client's state that only its service thread touches: each connection's `wsi`,
/// the message it is receiving, its pending connect, and how it closed.
///
/// Why unlocked: libwebsockets calls back on the service thread only.
final class ClientServiceSide: @unchecked Sendable {
  // Sendable: created before the service thread starts, then used by it alone.

  struct Entry {
    var connection: WebSocketConnection
    /// Resumed once: when the upgrade succeeds or the connection fails.
    var connect: CheckedContinuation<Void, any Error>?
    /// The largest message this connection reassembles.
    var maxMessageSize: Int
    var wsi: OpaquePointer?
    var inbound: [UInt8] = []
    /// Set once a message exceeded the size limit: the rest is discarded.
    var rejecting = false
    /// The close code and reason the peer sent, or this side's own close.
    var close: (code: UInt16, reason: String)?
  }

  /// The client context, for `lws_client_connect_via_info`.
  var context: OpaquePointer?
  var entries: [UInt64: Entry] = [:]
  var requests: [ConnectRequest] = []
  var wakes: [UInt64] = []
  private let serviceThread: ServiceThread

  init(serviceThread: ServiceThread) {
    self.serviceThread = serviceThread
  }

  /// Ends a connection: a pending connect fails with `error`, an open one reports its
  /// close and its events end. Returns whether `id` was still known. Service thread.
  @discardableResult
  func finish(_ id: UInt64, error: String) -> Bool {
    serviceThread.check()
    guard let entry = entries.removeValue(forKey: id) else { return false }
    if let connect = entry.connect {
      connect.resume(throwing: WebSocketClientError.connectionFailed(error))
    } else {
      let close = entry.close ?? (1006, "")
      entry.connection.eventContinuation.yield(.closed(code: close.code, reason: close.reason))
    }
    entry.connection.eventContinuation.finish()
    entry.connection.client.connectionEnded(id)
    return true
  }
}
