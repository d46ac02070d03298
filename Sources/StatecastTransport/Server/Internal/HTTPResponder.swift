internal import CLibWebSockets

/// Answers the HTTP requests that are not plain files: `/healthz`, app pages (deep links
/// into a single-page app), 404 for everything else, and refused upgrades. Service thread.
///
/// Files themselves are served by lws' file mount; a request reaches this type when no
/// file matched (lws then calls `LWS_CALLBACK_HTTP` with the request's path, without the
/// query string) or when the `/healthz` mount or an embedded file's mount matched.
enum HTTPResponder {
  /// Answers one request that no file matched. Returns the value the callback returns:
  /// non-zero closes the connection.
  static func respond(_ wsi: OpaquePointer, path: String, transport: WebSocketTransport) -> Int32 {
    if let file = transport.configuration.embeddedFiles.first(where: { $0.path == path }) {
      return complete(wsi, EmbeddedFileResponse.send(file, to: wsi))
    }
    // For a POST, lws hands over the path after the mount point: the request's own is
    // read instead.
    if let route = transport.configuration.postRoutes[LwsHeaders.value(wsi, WSI_TOKEN_POST_URI) ?? path] {
      return complete(wsi, post(wsi, route: route, transport: transport))
    }
    if path == "/healthz" {
      return complete(wsi, send(wsi, status: 200, contentType: "text/plain", body: "ok"))
    }
    if path == "/metrics", let metrics = transport.configuration.metrics,
      metricsAllowed(transport.peerAddress(wsi), transport.configuration.metricsAllowedAddresses)
    {
      return complete(
        wsi, send(wsi, status: 200, contentType: MetricsEndpoint.contentType, body: metrics.scrape()))
    }
    if path == "/readyz" {
      let ready = transport.isReady
      return complete(
        wsi,
        send(wsi, status: ready ? 200 : 503, contentType: "text/plain", body: ready ? "ready" : "not ready"))
    }
    if let route = transport.configuration.pageRoute,
      lws_hdr_total_length(wsi, WSI_TOKEN_GET_URI) > 0,
      transport.configuration.pagePaths.contains(path) || appPage(for: path, in: transport.appPages) != nil
    {
      return render(wsi, route: route, transport: transport)
    }
    if let page = appPage(for: path, in: transport.appPages) {
      let result = page.withCString { file in
        lws_serve_http_file(wsi, file, "text/html", nil, 0)
      }
      if result < 0 { return -1 }
      // > 0: lws answered by itself (e.g. 404 because the file is missing).
      return result > 0 ? complete(wsi, true) : 0
    }
    return complete(wsi, send(wsi, status: 404, contentType: "text/plain", body: "not found"))
  }

  /// Whether `peer` may read `/metrics`: listed (an IPv4 peer of a dual-stack socket is
  /// compared without its `::ffff:` prefix), or the list holds `*`.
  static func metricsAllowed(_ peer: String, _ allowed: [String]) -> Bool {
    let address = peer.hasPrefix("::ffff:") ? String(peer.dropFirst(7)) : peer
    return allowed.contains("*") || allowed.contains(address)
  }

  /// Answers a request for a POST route: 405 for another method, 403 unless its `Origin`
  /// is present and the server's own (or allowed), else the route's answer. Service
  /// thread.
  private static func post(_ wsi: OpaquePointer, route: PostRoute, transport: WebSocketTransport) -> Bool {
    guard lws_hdr_total_length(wsi, WSI_TOKEN_POST_URI) > 0 else {
      return send(wsi, status: 405, contentType: "text/plain", body: "POST only", headers: ["Allow: POST"])
    }
    let origin = LwsHeaders.value(wsi, WSI_TOKEN_ORIGIN)
    guard origin != nil,
      transport.originPolicy.accepts(origin: origin, host: LwsHeaders.value(wsi, WSI_TOKEN_HOST))
    else {
      return send(wsi, status: 403, contentType: "text/plain", body: "origin not allowed")
    }
    let answer = route(transport.requestHeaders(wsi))
    return send(
      wsi, status: UInt32(answer.status), contentType: "text/plain", body: "", headers: answer.headers)
  }

  /// Answers a request with `refusal` in HTTP/1.1 and ends the connection. Returns -1,
  /// which makes lws close the connection once the response is flushed. Service thread,
  /// in an HTTP callback (the header table still attached).
  static func refuse(_ wsi: OpaquePointer, _ refusal: HTTPRefusal, serverName: String) -> Int32 {
    let isHead = lws_hdr_total_length(wsi, WSI_TOKEN_HEAD_URI) > 0
    _ = writeRaw(
      wsi, refusal.response(serverName: serverName, includeBody: !isHead), kind: LWS_WRITE_HTTP_HEADERS)
    return -1
  }

  /// Writes `bytes` as they are (a whole response built here). Service thread.
  static func writeRaw(_ wsi: OpaquePointer, _ bytes: [UInt8], kind: lws_write_protocol) -> Bool {
    let headroom = Int(statecast_lws_pre)
    var buffer = [UInt8](repeating: 0, count: headroom) + bytes
    return buffer.withUnsafeMutableBufferPointer { pointer in
      lws_write(wsi, pointer.baseAddress! + headroom, bytes.count, kind) >= 0
    }
  }

  /// The file for the longest app page prefix that `path` is, or is under.
  static func appPage(for path: String, in pages: [(prefix: String, path: String)]) -> String? {
    for page in pages {
      if page.prefix == "/" || path == page.prefix || path.hasPrefix(page.prefix + "/") {
        return page.path
      }
    }
    return nil
  }

  /// Starts rendering a page in a task and leaves the request open: the service thread
  /// writes the answer when it comes (``write(_:page:)``), serving everything else
  /// meanwhile. A render that takes longer than ``pageTimeoutSeconds`` ends the
  /// connection. Service thread.
  private static func render(_ wsi: OpaquePointer, route: @escaping PageRoute, transport: WebSocketTransport)
    -> Int32
  {
    let headers = transport.requestHeaders(wsi)
    let id = transport.pages.begin(wsi)
    lws_set_timeout(wsi, PENDING_TIMEOUT_HTTP_CONTENT, pageTimeoutSeconds)
    Task { [pages = transport.pages, table = transport.table] in
      let answer = await route(headers)
      pages.finish(id, with: answer)
      table.wakeLoop()
    }
    return 0
  }

  /// How long a page may take to render before its request is given up.
  static let pageTimeoutSeconds: Int32 = 15

  /// Writes a rendered page's whole answer and ends the transaction. Service thread, in
  /// `HTTP_WRITEABLE`.
  static func write(_ wsi: OpaquePointer, page: PageAnswer) -> Int32 {
    lws_set_timeout(wsi, NO_PENDING_TIMEOUT, 0)
    return complete(
      wsi,
      send(
        wsi, status: UInt32(page.status), contentType: page.contentType, body: page.body,
        headers: page.headers,
        cacheControl: page.cacheControl))
  }

  /// Writes a complete response with a small body; `false` if the connection failed.
  private static func send(
    _ wsi: OpaquePointer, status: UInt32, contentType: String, body: String, headers: [String] = []
  ) -> Bool {
    send(wsi, status: status, contentType: contentType, body: Array(body.utf8), headers: headers)
  }

  /// Writes a complete response with `bodyBytes` and the extra header lines `headers`;
  /// `false` if the connection failed.
  private static func send(
    _ wsi: OpaquePointer, status: UInt32, contentType: String, body bodyBytes: [UInt8],
    headers: [String] = [],
    cacheControl: String = "no-store"
  )
    -> Bool
  {
    let headroom = Int(statecast_lws_pre)
    // Room for the vhost's own headers too (a content security policy with a hash per
    // inline script can be a few kilobytes), which lws adds to every response.
    let room = ServerContext.responseHeaderRoom + headers.reduce(0) { $0 + $1.utf8.count + 4 }
    var head = [UInt8](repeating: 0, count: headroom + room)
    let headersOK = head.withUnsafeMutableBufferPointer { buffer -> Bool in
      let start = buffer.baseAddress! + headroom
      let end = buffer.baseAddress! + buffer.count - 1
      var cursor: UnsafeMutablePointer<UInt8>? = start
      guard
        lws_add_http_common_headers(wsi, status, contentType, lws_filepos_t(bodyBytes.count), &cursor, end)
          == 0
      else { return false }
      let noStore = Array(cacheControl.utf8)
      guard
        lws_add_http_header_by_token(
          wsi, WSI_TOKEN_HTTP_CACHE_CONTROL, noStore, Int32(noStore.count), &cursor, end)
          == 0
      else { return false }
      for line in headers {
        guard let colon = line.firstIndex(of: ":") else { continue }
        let name = Array((line[..<colon].lowercased() + ":").utf8) + [0]
        let value = Array(line[line.index(after: colon)...].drop { $0 == " " }.utf8)
        guard lws_add_http_header_by_name(wsi, name, value, Int32(value.count), &cursor, end) == 0 else {
          return false
        }
      }
      return lws_finalize_write_http_header(wsi, start, &cursor, end) == 0
    }
    guard headersOK else { return false }
    let isHead = lws_hdr_total_length(wsi, WSI_TOKEN_HEAD_URI) > 0
    guard !bodyBytes.isEmpty, !isHead else { return true }
    var payload = [UInt8](repeating: 0, count: headroom) + bodyBytes
    return payload.withUnsafeMutableBufferPointer { buffer in
      lws_write(wsi, buffer.baseAddress! + headroom, bodyBytes.count, LWS_WRITE_HTTP_FINAL) >= 0
    }
  }

  /// Ends the HTTP transaction (keep-alive) after a response written here.
  private static func complete(_ wsi: OpaquePointer, _ sent: Bool) -> Int32 {
    guard sent else { return -1 }
    return lws_http_transaction_completed(wsi) != 0 ? -1 : 0
  }
}
