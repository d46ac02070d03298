internal import CLibWebSockets

/// Keep-alive: pings for silent connections and the idle timeout. Service thread.
extension WebSocketTransport {
  /// The payload of the transport's pings (lws reports only pongs that carry one).
  static let pingPayload = Array("statecast".utf8)

  /// Pings every connection silent for ``TransportConfiguration/pingInterval`` and closes
  /// with 1001 ("idle timeout") every one that has shown no sign of life (no message, no
  /// pong) for ``TransportConfiguration/idleTimeout``: the close frame goes after its
  /// queued frames, and a peer that reads nothing is dropped after the linger. Checked
  /// at most every 250 ms. Service thread, between event loop turns.
  func checkLiveness() {
    let now = ContinuousClock.now
    guard now - service.lastIdleCheck >= .milliseconds(250) else { return }
    service.lastIdleCheck = now
    var closedAny = false
    for slot in service.sockets.indices {
      guard let (id, wsi) = service.sockets[slot], slot < service.liveness.count,
        !service.liveness[slot].closing
      else { continue }
      let silent = now - service.liveness[slot].heard
      if silent >= configuration.idleTimeout {
        service.liveness[slot].closing = true
        closedAny = true
        table.requestClose(id, code: 1001, reason: "idle timeout")
        lws_set_timeout(wsi, PENDING_TIMEOUT_USER_OK, Int32(Self.lingerSeconds + 1))
      } else if silent >= configuration.pingInterval,
        now - service.liveness[slot].pinged >= configuration.pingInterval
      {
        service.liveness[slot].pinged = now
        service.liveness[slot].pingPending = true
        lws_callback_on_writable(wsi)
      }
    }
    if closedAny { wakeConnections() }
  }

  /// How long a connection the server is closing waits for the peer to close its side,
  /// reading and discarding what it still sends, before it is closed anyway.
  static let lingerSeconds = 2
}
