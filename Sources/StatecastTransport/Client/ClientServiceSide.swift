/// The client's state that only its service thread touches: each connection's `wsi`,
/// the message it is receiving, whether it has opened, and how it closed.
///
/// Why unlocked: libwebsockets calls back on the service thread only. The engine holds
/// it in a ``ServiceThreadBound``, which checks every access.
final class ClientServiceSide {
  struct Entry {
    /// Told what happens to the connection.
    var events: any ClientConnectionEvents
    /// Whether the upgrade succeeded (``ClientConnectionEvents/opened(subprotocol:)`` was
    /// called); until then, an end is a failure.
    var opened = false
    /// The subprotocol the server chose, read before the upgrade completes.
    var subprotocol: String?
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

  /// Ends a connection: one that had not opened fails with `error`, an open one reports
  /// its close. Returns whether `id` was still known. Service thread.
  @discardableResult
  func finish(_ id: UInt64, error: String) -> Bool {
    serviceThread.check()
    guard let entry = entries.removeValue(forKey: id) else { return false }
    if entry.opened {
      let close = entry.close ?? (1006, "")
      entry.events.closed(code: close.code, reason: close.reason)
    } else {
      entry.events.failed(error)
    }
    return true
  }
}
