internal import CLibWebSockets

/// Every HTTP request, upgrade and WebSocket event of the server's context arrives here,
/// through ``statecastProtocolCallback``, and goes on to the extension that handles it:
/// upgrades (`WebSocketTransport+Upgrades.swift`), connections and their messages
/// (`+Connections`), writes and wake-ups (`+Writing`), pings and idle timeouts
/// (`+Liveness`). Service thread.
extension WebSocketTransport: LibWebSocketsCallbacks {
  /// Dispatches one libwebsockets callback. Service thread.
  package func handle(_ event: LibWebSocketsEvent) -> Int32 {
    let (wsi, user, input, length) = (event.wsi, event.user, event.input, event.length)
    switch event.reason {
    case LWS_CALLBACK_EVENT_WAIT_CANCELLED:
      // Reaches the protocol with lws' internal pipe connection and no session memory.
      executor.runJobs()
      wakeConnections()
      pages.wakeFinished()
      return 0
    case LWS_CALLBACK_HTTP_WRITEABLE:
      if let answer = pages.take(wsi) { return HTTPResponder.write(wsi, page: answer) }
      return lws_callback_http_dummy(wsi, event.reason, user, input, length)
    case LWS_CALLBACK_CLOSED_HTTP:
      pages.closed(wsi)
      return lws_callback_http_dummy(wsi, event.reason, user, input, length)
    case LWS_CALLBACK_FILTER_NETWORK_CONNECTION:
      // `input` carries the accepted socket's descriptor (protocols[0], no session yet).
      return service.descriptorGuard.admits(Int32(truncatingIfNeeded: Int(bitPattern: input))) ? 0 : 1
    case LWS_CALLBACK_HTTP_CONFIRM_UPGRADE:
      return confirmUpgrade(wsi, kind: event.string)
    case LWS_CALLBACK_FILTER_HTTP_CONNECTION:
      if let refusal = headerSizeRefusal(wsi) { return refuse(wsi, refusal) }
      if !hostPolicy.accepts(LwsHeaders.value(wsi, WSI_TOKEN_HOST)) { return refuse(wsi, .unknownHost) }
      // `input` is the request's path, decoded, before the file mount opens anything.
      let path = event.length > 0 ? String(decoding: event.bytes, as: UTF8.self) : (event.string ?? "/")
      if let rule = publicFileRule, rule.refuses(path) {
        return refuse(wsi, HTTPRefusal(status: 404, message: "not found"))
      }
      return 0
    case LWS_CALLBACK_RAW_RX:
      return rawReceived(wsi, session: user, event.bytes)
    case LWS_CALLBACK_RAW_ADOPT, LWS_CALLBACK_RAW_CLOSE, LWS_CALLBACK_RAW_WRITEABLE:
      return 0
    case LWS_CALLBACK_FILTER_PROTOCOL_CONNECTION:
      return filterUpgrade(wsi, session: user)
    case LWS_CALLBACK_ADD_HEADERS:
      return addUpgradeHeaders(wsi, event.input)
    case LWS_CALLBACK_ESTABLISHED:
      defer { wakeConnections() }
      return established(wsi, session: user)
    case LWS_CALLBACK_RECEIVE_PONG:
      // lws reports pongs that carry a payload: the answers to the transport's pings.
      if let session = user?.assumingMemoryBound(to: statecast_session.self), session.pointee.connection != 0
      {
        service.heard(ConnectionID(rawValue: session.pointee.connection))
      }
      return 0
    case LWS_CALLBACK_RECEIVE:
      // The message's task runs here, at once: its patch and reply are queued before the
      // socket is woken for writing, in this same turn of the loop.
      defer {
        executor.runJobs()
        wakeConnections()
      }
      return received(wsi, session: user, input, length)
    case LWS_CALLBACK_WS_PEER_INITIATED_CLOSE:
      // The peer's close frame. After the server's own close frame it is the answer the
      // lingering close waited for: hang up now (nothing follows it). Otherwise lws
      // answers it with a close frame of its own, as RFC 6455 asks.
      return isClosing(user) ? 1 : 0
    case LWS_CALLBACK_SERVER_WRITEABLE:
      defer { wakeConnections() }
      return writeable(wsi, session: user)
    case LWS_CALLBACK_CLOSED:
      closed(session: user)
      wakeConnections()
      return 0
    case LWS_CALLBACK_HTTP:
      let path = event.string ?? "/"
      return HTTPResponder.respond(wsi, path: path, transport: self)
    default:
      // lws' default HTTP handling (file completion, keep-alive, bodies).
      return lws_callback_http_dummy(wsi, event.reason, user, input, length)
    }
  }
}
