internal import CLibWebSockets

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Upgrades and plain HTTP requests the callback decides on before lws answers them:
/// which upgrades are accepted, what a refusal writes, the headers an upgrade check sees.
/// Service thread.
extension WebSocketTransport {

  /// Accepts or refuses an HTTP upgrade before lws looks at it: header size, path, the
  /// handshake's own headers (RFC 6455 section 4.2.1), subprotocol and Origin. A refusal
  /// answers an HTTP/1.1 status (431, 404, 400, 426, 403, or 503 while shutting down)
  /// and closes. An `h2c` upgrade is refused with 400: the port speaks HTTP/1.1 only.
  /// Service thread.
  func confirmUpgrade(_ wsi: OpaquePointer, kind: String?) -> Int32 {
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
  func headerSizeRefusal(_ wsi: OpaquePointer) -> HTTPRefusal? {
    LwsHeaders.knownHeadersLength(wsi) > configuration.maxRequestHeaderSize ? .headersTooLarge : nil
  }

  /// Writes `refusal` and closes. Service thread.
  func refuse(_ wsi: OpaquePointer, _ refusal: HTTPRefusal) -> Int32 {
    if lws_hdr_total_length(wsi, WSI_TOKEN_UPGRADE) > 0 { counters.refused(status: refusal.status) }
    return HTTPResponder.refuse(wsi, refusal, serverName: configuration.serverName)
  }

  /// Answers a connection lws handed over as a raw socket: a `CONNECT` request (405) or
  /// a request with a method lws does not know (501). The first bytes are the request;
  /// the answer is written once, then the connection only waits for the peer to close
  /// (what it still sends is discarded) for up to ``lingerSeconds``. Service thread.
  func rawReceived(
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
  func filterUpgrade(_ wsi: OpaquePointer, session: UnsafeMutableRawPointer?) -> Int32 {
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
  func addUpgradeHeaders(_ wsi: OpaquePointer, _ input: UnsafeMutableRawPointer?) -> Int32 {
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
}
