internal import CLibWebSockets

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

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
      defer { wakeConnections() }
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

  // MARK: - Upgrades

  /// Accepts or refuses an HTTP upgrade before lws looks at it: header size, path, the
  /// handshake's own headers (RFC 6455 section 4.2.1), subprotocol and Origin. A refusal
  /// answers an HTTP/1.1 status (431, 404, 400, 426, 403, or 503 while shutting down)
  /// and closes. An `h2c` upgrade is refused with 400: the port speaks HTTP/1.1 only.
  /// Service thread.
  private func confirmUpgrade(_ wsi: OpaquePointer, kind: String?) -> Int32 {
    service.pendingIdentity = nil
    if let refusal = headerSizeRefusal(wsi) { return refuse(wsi, refusal) }
    guard kind?.lowercased() == "websocket" else {
      return refuse(wsi, HTTPRefusal(status: 400, message: "only WebSocket upgrades are supported"))
    }
    guard hostPolicy.accepts(LwsHeaders.value(wsi, WSI_TOKEN_HOST)) else { return refuse(wsi, .unknownHost) }
    guard service.listening, !isDraining else {
      return refuse(wsi, HTTPRefusal(status: 503, message: "server draining: reconnect shortly"))
    }
    guard !isStarting else {
      return refuse(wsi, HTTPRefusal(status: 503, message: "server starting: reconnect shortly"))
    }
    guard
      let endpoint = Endpoint(
        path: LwsHeaders.value(wsi, WSI_TOKEN_GET_URI) ?? "", echoEnabled: configuration.echo)
    else {
      return refuse(wsi, HTTPRefusal(status: 404, message: "no WebSocket endpoint here"))
    }
    if let refusal = connectionLimitRefusal(wsi) {
      counters.refusedOverLimit()
      return refuse(wsi, refusal)
    }
    let upgrade = UpgradeRequest(
      httpVersion: LwsHeaders.value(wsi, WSI_TOKEN_HTTP), keys: LwsHeaders.occurrences(wsi, WSI_TOKEN_KEY),
      versions: LwsHeaders.occurrences(wsi, WSI_TOKEN_VERSION))
    if let refusal = upgrade.refusal { return refuse(wsi, refusal) }
    let offered = LwsHeaders.list(wsi, WSI_TOKEN_PROTOCOL)
    guard offered.isEmpty || offered.contains(Endpoint.subprotocol) else {
      return refuse(wsi, HTTPRefusal(status: 400, message: "subprotocol \(Endpoint.subprotocol) required"))
    }
    guard
      originPolicy.accepts(
        origin: LwsHeaders.value(wsi, WSI_TOKEN_ORIGIN), host: LwsHeaders.value(wsi, WSI_TOKEN_HOST))
    else {
      return refuse(wsi, HTTPRefusal(status: 403, message: "origin not allowed"))
    }
    if endpoint == .statecast, let check = configuration.upgradeCheck {
      switch check(requestHeaders(wsi)) {
      case .accept(let identity, let responseHeaders):
        service.pendingIdentity = (wsi, identity, responseHeaders)
      case .refuse(let status, let reason):
        let status = status == 401 ? 401 : 403
        return refuse(wsi, HTTPRefusal(status: status, message: String(reason.prefix(200))))
      }
    }
    return 0
  }

  /// 503 when the server holds ``TransportConfiguration/maxConnections`` WebSockets, or
  /// the peer's address ``TransportConfiguration/maxConnectionsPerAddress``. Service
  /// thread.
  private func connectionLimitRefusal(_ wsi: OpaquePointer) -> HTTPRefusal? {
    if table.connectionCount >= configuration.maxConnections {
      return HTTPRefusal(status: 503, message: "server at its connection limit: try again later")
    }
    if (service.openPerAddress[peerAddress(wsi)] ?? 0) >= configuration.maxConnectionsPerAddress {
      return HTTPRefusal(status: 503, message: "too many connections from this address: try again later")
    }
    return nil
  }

  /// The peer's IP address as text, or empty. Service thread.
  func peerAddress(_ wsi: OpaquePointer) -> String {
    var peer = [CChar](repeating: 0, count: 64)
    return peer.withUnsafeMutableBufferPointer { buffer -> String in
      guard let text = lws_get_peer_simple(wsi, buffer.baseAddress, buffer.count) else { return "" }
      return String(cString: text)
    }
  }

  /// What an upgrade check or a POST route sees of the request on `wsi`. Service thread.
  func requestHeaders(_ wsi: OpaquePointer) -> UpgradeHeaders {
    var fields: [String: String] = [:]
    for raw in 0..<_WSI_TOKEN_CLIENT_SENT_PROTOCOLS.rawValue {
      let token = lws_token_indexes(rawValue: raw)
      guard lws_hdr_total_length(wsi, token) > 0, let name = lws_token_to_string(token) else { continue }
      let text = String(cString: name)
      // Header tokens are named "name:"; the request line's are "get ", "post " and so on.
      guard text.hasSuffix(":"), text.count > 1 else { continue }
      fields[String(text.dropLast())] = LwsHeaders.value(wsi, token)
    }
    for name in configuration.upgradeHeaderNames {
      let key = name.lowercased() + ":"
      let length = Int(lws_hdr_custom_length(wsi, key, Int32(key.utf8.count)))
      guard length >= 0 else { continue }
      let capacity = length + 1
      fields[name.lowercased()] = String(unsafeUninitializedCapacity: capacity) { buffer in
        let copied = buffer.withMemoryRebound(to: CChar.self) { chars in
          lws_hdr_custom_copy(wsi, chars.baseAddress, Int32(capacity), key, Int32(key.utf8.count))
        }
        return copied > 0 ? Int(copied) : 0
      }
    }
    var path = LwsHeaders.value(wsi, WSI_TOKEN_GET_URI) ?? LwsHeaders.value(wsi, WSI_TOKEN_POST_URI) ?? "/"
    let arguments = LwsHeaders.occurrences(wsi, WSI_TOKEN_HTTP_URI_ARGS)
    if !arguments.isEmpty { path += "?" + arguments.joined(separator: "&") }
    return UpgradeHeaders(path: path, peerAddress: peerAddress(wsi), fields: fields)
  }

  /// 431 when the request's headers exceed the configured limit. Service thread.
  private func headerSizeRefusal(_ wsi: OpaquePointer) -> HTTPRefusal? {
    LwsHeaders.knownHeadersLength(wsi) > configuration.maxRequestHeaderSize ? .headersTooLarge : nil
  }

  /// Writes `refusal` and closes. Service thread.
  private func refuse(_ wsi: OpaquePointer, _ refusal: HTTPRefusal) -> Int32 {
    if lws_hdr_total_length(wsi, WSI_TOKEN_UPGRADE) > 0 { counters.refused(status: refusal.status) }
    return HTTPResponder.refuse(wsi, refusal, serverName: configuration.serverName)
  }

  /// Answers a connection lws handed over as a raw socket: a `CONNECT` request (405) or
  /// a request with a method lws does not know (501). The first bytes are the request;
  /// the answer is written once, then the connection only waits for the peer to close
  /// (what it still sends is discarded) for up to ``lingerSeconds``. Service thread.
  private func rawReceived(
    _ wsi: OpaquePointer, session: UnsafeMutableRawPointer?, _ bytes: UnsafeRawBufferPointer
  )
    -> Int32
  {
    let state = session?.assumingMemoryBound(to: statecast_session.self)
    if state?.pointee.closing == 1 { return 0 }
    let refusal: HTTPRefusal = bytes.starts(with: "CONNECT ".utf8) ? .connectNotAllowed : .unknownMethod
    guard
      HTTPResponder.writeRaw(
        wsi, refusal.response(serverName: configuration.serverName), kind: LWS_WRITE_HTTP),
      let state
    else { return -1 }
    state.pointee.closing = 1
    _ = Glibc.shutdown(lws_get_socket_fd(wsi), Int32(SHUT_WR))
    lws_set_timeout(wsi, PENDING_TIMEOUT_USER_OK, Int32(Self.lingerSeconds))
    return 0
  }

  /// Records which endpoint the accepted upgrade is for, in lws' per-session memory
  /// (plain values only). Service thread.
  private func filterUpgrade(_ wsi: OpaquePointer, session: UnsafeMutableRawPointer?) -> Int32 {
    guard let session,
      let endpoint = Endpoint(
        path: LwsHeaders.value(wsi, WSI_TOKEN_GET_URI) ?? "", echoEnabled: configuration.echo)
    else { return 1 }
    session.assumingMemoryBound(to: statecast_session.self).pointee.endpoint = endpoint.rawValue
    return 0
  }

  /// Adds the upgrade check's response headers to the `101` of the upgrade it accepted
  /// (lws asks while it writes the handshake answer; `input` is where the headers go).
  /// Service thread.
  private func addUpgradeHeaders(_ wsi: OpaquePointer, _ input: UnsafeMutableRawPointer?) -> Int32 {
    guard let input, let pending = service.pendingIdentity, pending.wsi == wsi else { return 0 }
    let arguments = input.assumingMemoryBound(to: lws_process_html_args.self)
    guard let start = arguments.pointee.p else { return 0 }
    var cursor: UnsafeMutablePointer<UInt8>? = UnsafeMutableRawPointer(start).assumingMemoryBound(
      to: UInt8.self)
    let end = cursor! + Int(arguments.pointee.max_len)
    for line in pending.responseHeaders {
      guard let colon = line.firstIndex(of: ":") else { continue }
      let name = Array((line[..<colon].lowercased() + ":").utf8) + [0]
      let value = Array(line[line.index(after: colon)...].drop { $0 == " " }.utf8)
      guard lws_add_http_header_by_name(wsi, name, value, Int32(value.count), &cursor, end) == 0 else {
        return 1
      }
    }
    arguments.pointee.p = UnsafeMutableRawPointer(cursor!).assumingMemoryBound(to: CChar.self)
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
    service.opened(id, from: peerAddress(wsi))
    var identity: (any Sendable)?
    if let pending = service.pendingIdentity, pending.wsi == wsi { identity = pending.identity }
    service.pendingIdentity = nil
    if session.pointee.endpoint == Endpoint.statecast.rawValue {
      service.handler?.transportOpened(id, identity: identity, address: peerAddress(wsi))
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
  /// the handler (1003 unless it takes it, or when over the size limit), too large → handler (or 1009 on `/echo`); the rest of a refused message, and
  /// anything after the server's close frame, is read and discarded. lws itself has
  /// already closed with 1007 on invalid UTF-8. Service thread.
  private func received(
    _ wsi: OpaquePointer, session: UnsafeMutableRawPointer?, _ input: UnsafeMutableRawPointer?, _ length: Int
  ) -> Int32 {
    guard let session = session?.assumingMemoryBound(to: statecast_session.self),
      session.pointee.connection != 0
    else { return -1 }
    let id = ConnectionID(rawValue: session.pointee.connection)
    service.heard(id)
    let slot = Int(id.slot)
    let isEcho = session.pointee.endpoint == Endpoint.echo.rawValue
    if session.pointee.closing != 0 || service.inbound[slot].rejected { return 0 }

    let isBinary = lws_frame_is_binary(wsi) != 0
    let limit = isEcho ? configuration.echoMaxMessageSize : configuration.maxMessageSize
    if service.inbound[slot].bytes.count + length > limit {
      service.inbound[slot] = InboundMessage(rejected: true)
      if isBinary && !isEcho {
        // No chunk of an upload is that large: a binary message, refused as before.
        table.requestClose(id, code: 1003, reason: "binary messages are not accepted")
        return 0
      }
      if isEcho {
        table.requestClose(id, code: 1009, reason: "message too big")
        return 0
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
    } else if isBinary {
      // Only the handler knows which binary messages are chunks of an announced upload.
      if service.handler?.transportReceived(id, binary: message) != true {
        service.inbound[slot] = InboundMessage(rejected: true)
        table.requestClose(id, code: 1003, reason: "binary messages are not accepted")
      }
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
      session.pointee.connection != 0, session.pointee.closing == 0
    else { return 0 }
    let id = ConnectionID(rawValue: session.pointee.connection)
    let tellsHandler = session.pointee.endpoint == Endpoint.statecast.rawValue
    let slot = Int(id.slot)
    if slot < service.liveness.count, service.liveness[slot].pingPending {
      service.liveness[slot].pingPending = false
      var ping = [UInt8](repeating: 0, count: Int(statecast_lws_pre)) + Self.pingPayload
      let written = ping.withUnsafeMutableBufferPointer { buffer in
        lws_write(wsi, buffer.baseAddress! + Int(statecast_lws_pre), Self.pingPayload.count, LWS_WRITE_PING)
      }
      if written < 0 { return -1 }
      lws_callback_on_writable(wsi)
      return 0
    }
    var writes = 0
    while true {
      switch table.nextWrite(for: id) {
      case .idle:
        return 0
      case .close(let close):
        counters.closed(code: close.code)
        return beginLingeringClose(wsi, session: session, code: close.code, reason: close.reason)
      case .frame(let frame, let drained, let more):
        let kind = frame.kind == .text ? LWS_WRITE_TEXT : LWS_WRITE_BINARY
        if lws_write(wsi, frame.writablePayload, frame.count, kind) < 0 { return -1 }
        counters.wrote(bytes: frame.count)
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

  /// The payload of the transport's pings (lws reports only pongs that carry one).
  private static let pingPayload = Array("statecast".utf8)

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

  /// Writes the server's close frame and keeps the connection open, reading and
  /// discarding, until the peer answers with its own close frame or hangs up, for at
  /// most ``lingerSeconds``.
  ///
  /// Why not lws' own close: after writing the close frame, lws 4.1 reads once and then
  /// closes the socket. A peer that is still sending (the rest of an oversized message,
  /// a burst of bad ones) then has bytes in flight to a closed socket, the kernel
  /// answers them with a reset, and the reset destroys what the peer had not read yet:
  /// the error reply and the close frame itself. Service thread, in `SERVER_WRITEABLE`
  /// (so nothing of lws' own is buffered ahead of the frame).
  private func beginLingeringClose(
    _ wsi: OpaquePointer, session: UnsafeMutablePointer<statecast_session>, code: UInt16, reason: String
  ) -> Int32 {
    let code = CloseFrame.sendableCode(code)
    let pre = Int(statecast_lws_pre)
    var frame = [UInt8](repeating: 0, count: pre) + [UInt8(code >> 8), UInt8(code & 0xff)]
    frame += CloseFrame.reasonBytes(reason)
    let length = frame.count - pre
    let written = frame.withUnsafeMutableBufferPointer { buffer in
      lws_write(wsi, buffer.baseAddress! + pre, length, statecast_write_close)
    }
    if written < 0 { return -1 }
    session.pointee.closing = 1
    lws_set_timeout(wsi, PENDING_TIMEOUT_USER_OK, Int32(Self.lingerSeconds))
    return 0
  }

  /// Whether the server has sent its close frame on this connection. Service thread.
  private func isClosing(_ session: UnsafeMutableRawPointer?) -> Bool {
    session?.assumingMemoryBound(to: statecast_session.self).pointee.closing == 1
  }

  /// How many frames one `SERVER_WRITEABLE` may write before yielding to other sockets.
  private static let writesPerWriteable = 16

  /// Asks lws for `SERVER_WRITEABLE` on every connection that got frames or a close
  /// since the last wake-up, including the ones over the hard limit (their close frame
  /// is written next, their backlog dropped). Service thread, on
  /// `LWS_CALLBACK_EVENT_WAIT_CANCELLED` and after each callback that can queue frames.
  private func wakeConnections() {
    guard !service.destroying else { return }
    table.takeWakes(into: &service.wakes)
    for wake in service.wakes {
      guard let wsi = service.wsi(of: wake.id) else { continue }
      if let kill = wake.kill {
        // The backlog is already dropped: the next `SERVER_WRITEABLE` writes the close
        // frame. A peer that reads nothing at all is closed without one after the linger.
        counters.closed(code: kill.code)
        counters.collapsed()
        lws_set_timeout(wsi, PENDING_TIMEOUT_USER_OK, Int32(Self.lingerSeconds))
      }
      lws_callback_on_writable(wsi)
    }
  }
}
