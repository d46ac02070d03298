internal import CLibWebSockets

/// Every connection event of the client context arrives here, through
/// `statecastProtocolCallback`; the connection comes back from the wsi's opaque user data
/// (its id, a plain integer). Service thread.
extension ClientEngine: LibWebSocketsCallbacks {
  /// Dispatches one libwebsockets callback. Service thread.
  package func handle(_ event: LibWebSocketsEvent) -> Int32 {
    let (wsi, reason, input, length) = (event.wsi, event.reason, event.input, event.length)
    if reason == LWS_CALLBACK_EVENT_WAIT_CANCELLED {
      startRequestedWork()
      return 0
    }
    guard let opaque = lws_get_opaque_user_data(wsi) else { return 0 }
    let id = UInt64(UInt(bitPattern: opaque))
    switch reason {
    case LWS_CALLBACK_CLIENT_FILTER_PRE_ESTABLISH:
      service.entries[id]?.subprotocol = LwsHeaders.value(wsi, WSI_TOKEN_PROTOCOL)
      return 0
    case LWS_CALLBACK_CLIENT_ESTABLISHED:
      guard let entry = service.entries[id], !entry.opened else { return -1 }
      service.entries[id]!.opened = true
      service.entries[id]!.wsi = wsi
      core.open(id)
      entry.events.opened(subprotocol: entry.subprotocol)
      return 0
    case LWS_CALLBACK_CLIENT_CONNECTION_ERROR:
      let message = event.string ?? "connection error"
      core.release(id)
      service.finish(id, error: message)
      return 0
    case LWS_CALLBACK_CLIENT_RECEIVE:
      return received(wsi, id: id, input, length)
    case LWS_CALLBACK_CLIENT_WRITEABLE:
      return writeable(wsi, id: id)
    case LWS_CALLBACK_WS_PEER_INITIATED_CLOSE:
      let payload = event.bytes
      let code = payload.count >= 2 ? UInt16(payload[0]) << 8 | UInt16(payload[1]) : 1005
      let reason = payload.count > 2 ? String(decoding: payload[2...], as: UTF8.self) : ""
      service.entries[id]?.close = (code, reason)
      return 0
    case LWS_CALLBACK_CLIENT_CLOSED, LWS_CALLBACK_WSI_DESTROY:
      core.release(id)
      service.finish(id, error: "connection closed during the upgrade")
      return 0
    default:
      return 0
    }
  }

  /// Starts the requested connects and asks for `CLIENT_WRITEABLE` where frames or a
  /// close were queued. Service thread, on `LWS_CALLBACK_EVENT_WAIT_CANCELLED`.
  private func startRequestedWork() {
    core.takeWork(requests: &service.requests, wakes: &service.wakes)
    for id in service.wakes {
      if let wsi = service.entries[id]?.wsi { lws_callback_on_writable(wsi) }
    }
    let requests = service.requests
    service.requests = []
    for request in requests { start(request) }
  }

  /// Starts one connect. Service thread (lws' client API is not thread-safe).
  private func start(_ request: ConnectRequest) {
    let id = request.id
    service.entries[id] = ClientServiceSide.Entry(
      events: request.events, maxMessageSize: request.maxMessageSize)
    let target = request.target
    let protocols = request.subprotocols.joined(separator: ", ")
    var flags: Int32 = 0
    if target.tls {
      flags |= Int32(LCCSCF_USE_SSL.rawValue)
      if request.allowInsecureTLS {
        flags |= Int32(
          LCCSCF_ALLOW_SELFSIGNED.rawValue | LCCSCF_SKIP_SERVER_CERT_HOSTNAME_CHECK.rawValue
            | LCCSCF_ALLOW_INSECURE.rawValue | LCCSCF_ALLOW_EXPIRED.rawValue)
      }
    }
    // lws copies every string of the connect info before returning.
    let wsi: OpaquePointer? = target.address.withCString { address in
      target.path.withCString { path in
        target.hostHeader.withCString { host in
          Self.withOptionalCString(protocols.isEmpty ? nil : protocols) { offered in
            Self.withOptionalCString(request.origin) { origin in
              ClientContext.protocolName.withCString { local in
                "http/1.1".withCString { alpn in
                  var info = lws_client_connect_info()
                  info.context = service.context
                  info.address = address
                  info.port = Int32(target.port)
                  info.ssl_connection = flags
                  info.path = path
                  info.host = host
                  info.origin = origin
                  info.protocol = offered
                  info.local_protocol_name = local
                  info.alpn = alpn
                  info.opaque_user_data = UnsafeMutableRawPointer(bitPattern: UInt(id))
                  return lws_client_connect_via_info(&info)
                }
              }
            }
          }
        }
      }
    }
    if wsi == nil {
      service.finish(id, error: "cannot start a connection to \(target.address):\(target.port)")
    }
  }

  /// Reassembles fragments into messages and hands each whole one to the connection's
  /// events. Service thread.
  private func received(_ wsi: OpaquePointer, id: UInt64, _ input: UnsafeMutableRawPointer?, _ length: Int)
    -> Int32
  {
    guard service.entries[id] != nil else { return -1 }
    if service.entries[id]!.rejecting { return 0 }
    let chunk = UnsafeRawBufferPointer(start: input, count: input == nil ? 0 : length)
    if service.entries[id]!.inbound.count + chunk.count > service.entries[id]!.maxMessageSize {
      service.entries[id]!.rejecting = true
      service.entries[id]!.inbound = []
      service.entries[id]!.close = (1009, "message too big")
      CloseFrame.setReason(wsi, code: 1009, reason: "message too big")
      return -1
    }
    let isFinal = lws_is_final_fragment(wsi) != 0
    let message: [UInt8]
    if isFinal && service.entries[id]!.inbound.isEmpty {
      message = Array(chunk)
    } else {
      service.entries[id]!.inbound.append(contentsOf: chunk)
      guard isFinal else { return 0 }
      message = service.entries[id]!.inbound
      service.entries[id]!.inbound = []
    }
    service.entries[id]!.events.received(message, binary: lws_frame_is_binary(wsi) != 0)
    return 0
  }

  /// Writes queued frames while the socket takes them, then a requested close.
  /// Service thread.
  private func writeable(_ wsi: OpaquePointer, id: UInt64) -> Int32 {
    var writes = 0
    while true {
      switch core.nextWrite(for: id) {
      case .idle:
        return 0
      case .close(let close):
        service.entries[id]?.close = (close.code, close.reason)
        CloseFrame.setReason(wsi, code: close.code, reason: close.reason)
        return -1
      case .frame(let frame, let more):
        if lws_write(
          wsi, frame.payload.writablePayload, frame.payload.count, lws_write_protocol(rawValue: frame.flags))
          < 0
        {
          return -1
        }
        writes += 1
        guard more else { return 0 }
        if writes >= 16 || lws_send_pipe_choked(wsi) != 0 {
          lws_callback_on_writable(wsi)
          return 0
        }
      }
    }
  }

  private static func withOptionalCString<Result>(
    _ string: String?, _ body: (UnsafePointer<CChar>?) -> Result
  ) -> Result {
    guard let string else { return body(nil) }
    return string.withCString { body($0) }
  }
}
