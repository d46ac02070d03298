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
    if path == "/healthz" {
      return complete(wsi, send(wsi, status: 200, contentType: "text/plain", body: "ok"))
    }
    if path == "/metrics", let metrics = transport.configuration.metrics {
      return complete(
        wsi, send(wsi, status: 200, contentType: MetricsEndpoint.contentType, body: metrics.scrape()))
    }
    if path == "/readyz" {
      let ready = transport.isReady
      return complete(
        wsi,
        send(wsi, status: ready ? 200 : 503, contentType: "text/plain", body: ready ? "ready" : "not ready"))
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

  /// Writes a complete response with a small body; `false` if the connection failed.
  private static func send(_ wsi: OpaquePointer, status: UInt32, contentType: String, body: String) -> Bool {
    send(wsi, status: status, contentType: contentType, body: Array(body.utf8))
  }

  /// Writes a complete response with `bodyBytes`; `false` if the connection failed.
  private static func send(_ wsi: OpaquePointer, status: UInt32, contentType: String, body bodyBytes: [UInt8])
    -> Bool
  {
    let headroom = Int(statecast_lws_pre)
    var headers = [UInt8](repeating: 0, count: headroom + 512)
    let headersOK = headers.withUnsafeMutableBufferPointer { buffer -> Bool in
      let start = buffer.baseAddress! + headroom
      let end = buffer.baseAddress! + buffer.count - 1
      var cursor: UnsafeMutablePointer<UInt8>? = start
      guard
        lws_add_http_common_headers(wsi, status, contentType, lws_filepos_t(bodyBytes.count), &cursor, end)
          == 0
      else { return false }
      let noStore = Array("no-store".utf8)
      guard
        lws_add_http_header_by_token(
          wsi, WSI_TOKEN_HTTP_CACHE_CONTROL, noStore, Int32(noStore.count), &cursor, end)
          == 0
      else { return false }
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
