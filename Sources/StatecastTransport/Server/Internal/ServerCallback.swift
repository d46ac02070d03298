internal import CLibWebSockets

/// Every HTTP request, upgrade and WebSocket event of the server's context arrives here,
/// through ``statecastProtocolCallback``. Service thread.
extension WebSocketTransport: LibWebSocketsCallbacks {
  /// Dispatches one libwebsockets callback. Service thread.
  package func handle(_ event: LibWebSocketsEvent) -> Int32 {
    let (wsi, user, input, length) = (event.wsi, event.user, event.input, event.length)
    switch event.reason {
    case LWS_CALLBACK_EVENT_WAIT_CANCELLED:
      // Reaches the protocol with lws' internal pipe connection and no session memory.
      wakeConnections()
      return 0
    case LWS_CALLBACK_HTTP_CONFIRM_UPGRADE:
      return confirmUpgrade(wsi, kind: input)
    case LWS_CALLBACK_FILTER_PROTOCOL_CONNECTION:
      return filterUpgrade(wsi, session: user)
    case LWS_CALLBACK_ESTABLISHED:
      defer { wakeConnections() }
      return established(wsi, session: user)
    case LWS_CALLBACK_RECEIVE:
      defer { wakeConnections() }
      return received(wsi, session: user, input, length)
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

  // MARK: - Upgrades

  /// Accepts or refuses an HTTP upgrade before lws looks at it: path, subprotocol and
  /// Origin. A refusal answers an HTTP status (404, 400, 403, or 503 while shutting
  /// down) instead of dropping the TCP connection. Service thread.
  private func confirmUpgrade(_ wsi: OpaquePointer, kind: UnsafeMutableRawPointer?) -> Int32 {
    let upgrade = kind.map { String(cString: $0.assumingMemoryBound(to: CChar.self)) } ?? ""
    guard upgrade.lowercased() == "websocket" else { return 0 }
    guard service.listening else {
      return HTTPResponder.refuse(wsi, status: 503, message: "shutting down")
    }
    guard Endpoint(path: LwsHeaders.value(wsi, WSI_TOKEN_GET_URI) ?? "", echoEnabled: configuration.echo) != nil
    else {
      return HTTPResponder.refuse(wsi, status: 404, message: "no WebSocket endpoint here")
    }
    let offered = LwsHeaders.list(wsi, WSI_TOKEN_PROTOCOL)
    guard offered.isEmpty || offered.contains(Endpoint.subprotocol) else {
      return HTTPResponder.refuse(wsi, status: 400, message: "subprotocol \(Endpoint.subprotocol) required")
    }
    guard
      originPolicy.accepts(
        origin: LwsHeaders.value(wsi, WSI_TOKEN_ORIGIN), host: LwsHeaders.value(wsi, WSI_TOKEN_HOST))
    else {
      return HTTPResponder.refuse(wsi, status: 403, message: "origin not allowed")
    }
    return 0
  }

  /// Records which endpoint the accepted upgrade is for, in lws' per-session memory
  /// (plain values only). Service thread.
  private func filterUpgrade(_ wsi: OpaquePointer, session: UnsafeMutableRawPointer?) -> Int32 {
    guard let session,
      let endpoint = Endpoint(path: LwsHeaders.value(wsi, WSI_TOKEN_GET_URI) ?? "", echoEnabled: configuration.echo)
    else { return 1 }
    session.assumingMemoryBound(to: statecast_session.self).pointee.endpoint = endpoint.rawValue
    return 0
  }

  // MARK: - Connections

  /// Gives a new WebSocket connection its id and tells the handler (`/ws` only).
  /// Service thread; takes the table's lock to allocate the slot.
  private func established(_ wsi: OpaquePointer, session: UnsafeMutableRawPointer?) -> Int32 {
    guard let session = session?.assumingMemoryBound(to: statecast_session.self) else { return -1 }
    let id = table.open()
    session.pointee.connection = id.rawValue
    service.register(id, wsi: wsi)
    if session.pointee.endpoint == Endpoint.statecast.rawValue {
      service.handler?.transportOpened(id)
    }
    return 0
  }

  /// Frees a closed connection's slot (later sends answer `.closed`) and tells the
  /// handler (`/ws` only). Service thread; takes the table's lock to free the slot.
  private func closed(session: UnsafeMutableRawPointer?) {
    guard let session = session?.assumingMemoryBound(to: statecast_session.self),
      session.pointee.connection != 0
    else { return }
    let id = ConnectionID(rawValue: session.pointee.connection)
    session.pointee.connection = 0
    table.release(id)
    service.unregister(id)
    if session.pointee.endpoint == Endpoint.statecast.rawValue {
      service.handler?.transportClosed(id)
    }
  }

  /// Reassembles fragments into whole messages and enforces the inbound rules: binary →
  /// 1003, too large → handler (or 1009 on `/echo`). lws itself has already closed with
  /// 1007 on invalid UTF-8. Service thread.
  private func received(
    _ wsi: OpaquePointer, session: UnsafeMutableRawPointer?, _ input: UnsafeMutableRawPointer?, _ length: Int
  ) -> Int32 {
    guard let session = session?.assumingMemoryBound(to: statecast_session.self),
      session.pointee.connection != 0
    else { return -1 }
    let id = ConnectionID(rawValue: session.pointee.connection)
    let slot = Int(id.slot)
    let isEcho = session.pointee.endpoint == Endpoint.echo.rawValue
    if service.inbound[slot].rejected { return 0 }

    let isBinary = lws_frame_is_binary(wsi) != 0
    if isBinary && !isEcho {
      CloseFrame.setReason(wsi, code: 1003, reason: "binary messages are not accepted")
      return -1
    }
    let limit = isEcho ? configuration.echoMaxMessageSize : configuration.maxMessageSize
    if service.inbound[slot].bytes.count + length > limit {
      service.inbound[slot] = InboundMessage(rejected: true)
      if isEcho {
        CloseFrame.setReason(wsi, code: 1009, reason: "message too big")
        return -1
      }
      service.handler?.transportRejectedTooLarge(id)
      return 0
    }

    let chunk = UnsafeRawBufferPointer(start: input, count: input == nil ? 0 : length)
    let isFinal = lws_is_final_fragment(wsi) != 0
    if isEcho && isFinal && service.inbound[slot].bytes.isEmpty {
      // A whole message in one piece: straight into the frame, with a single copy.
      _ = table.enqueue(OutboundFrame(kind: isBinary ? .binary : .text, bytes: chunk), to: id)
      return 0
    }
    let message: [UInt8]
    if isFinal && service.inbound[slot].bytes.isEmpty {
      message = Array(chunk)
    } else {
      service.inbound[slot].bytes.append(contentsOf: chunk)
      guard isFinal else { return 0 }
      message = service.inbound[slot].bytes
      service.inbound[slot].bytes = []
    }

    if isEcho {
      _ = table.enqueue(OutboundFrame(kind: isBinary ? .binary : .text, bytes: message), to: id)
    } else {
      service.handler?.transportReceived(id, message: message)
    }
    return 0
  }

  /// Writes queued frames while the socket takes them (a bounded number per event, so
  /// one busy connection cannot starve the others), then performs a pending close.
  /// Service thread.
  private func writeable(_ wsi: OpaquePointer, session: UnsafeMutableRawPointer?) -> Int32 {
    guard let session = session?.assumingMemoryBound(to: statecast_session.self),
      session.pointee.connection != 0
    else { return 0 }
    let id = ConnectionID(rawValue: session.pointee.connection)
    let tellsHandler = session.pointee.endpoint == Endpoint.statecast.rawValue
    var writes = 0
    while true {
      switch table.nextWrite(for: id) {
      case .idle:
        return 0
      case .close(let close):
        CloseFrame.setReason(wsi, code: close.code, reason: close.reason)
        return -1
      case .frame(let frame, let drained, let more):
        let kind = frame.kind == .text ? LWS_WRITE_TEXT : LWS_WRITE_BINARY
        if lws_write(wsi, frame.writablePayload, frame.count, kind) < 0 { return -1 }
        writes += 1
        if drained && tellsHandler { service.handler?.transportDrained(id) }
        guard more else { return 0 }
        if writes >= Self.writesPerWriteable || lws_send_pipe_choked(wsi) != 0 {
          lws_callback_on_writable(wsi)
          return 0
        }
      }
    }
  }

  /// How many frames one `SERVER_WRITEABLE` may write before yielding to other sockets.
  private static let writesPerWriteable = 16

  /// Asks lws for `SERVER_WRITEABLE` on every connection that got frames or a close
  /// since the last wake-up, and kills the ones over the hard limit. Service thread, on
  /// `LWS_CALLBACK_EVENT_WAIT_CANCELLED` and after each callback that can queue frames.
  private func wakeConnections() {
    guard !service.destroying else { return }
    table.takeWakes(into: &service.wakes)
    for wake in service.wakes {
      guard let wsi = service.wsi(of: wake.id) else { continue }
      if let kill = wake.kill {
        CloseFrame.setReason(wsi, code: kill.code, reason: kill.reason)
        lws_set_timeout(wsi, PENDING_TIMEOUT_USER_OK, LWS_TO_KILL_ASYNC)
      } else {
        lws_callback_on_writable(wsi)
      }
    }
  }
}
