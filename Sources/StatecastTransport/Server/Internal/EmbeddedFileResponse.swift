internal import CLibWebSockets

/// Answers a request for an ``EmbeddedFile``: `200` with its body, or `304` when the
/// request's `If-None-Match` names its ETag. Service thread, in `LWS_CALLBACK_HTTP`.
///
/// Unlike lws' file mount, which can only send `max-age=1`, these responses say
/// `no-cache`: the browser keeps the file and asks again each time, so a new server
/// version is picked up on the next load.
enum EmbeddedFileResponse {
  /// Writes the whole response; `false` if the connection failed.
  static func send(_ file: EmbeddedFile, to wsi: OpaquePointer) -> Bool {
    let notModified =
      LwsHeaders.value(wsi, WSI_TOKEN_HTTP_IF_NONE_MATCH)
      .map { header in
        header.split(separator: ",").contains { item in
          let tag = String(item.filter { $0 != " " })
          return tag == file.etag || tag == "*"
        }
      } ?? false
    let headroom = Int(statecast_lws_pre)
    var headers = [UInt8](repeating: 0, count: headroom + 1024)
    let headersOK = headers.withUnsafeMutableBufferPointer { buffer -> Bool in
      let start = buffer.baseAddress! + headroom
      let end = buffer.baseAddress! + buffer.count - 1
      var cursor: UnsafeMutablePointer<UInt8>? = start
      if notModified {
        guard lws_add_http_header_status(wsi, 304, &cursor, end) == 0 else { return false }
      } else {
        guard
          lws_add_http_common_headers(
            wsi, 200, file.contentType, lws_filepos_t(file.body.count), &cursor, end) == 0
        else { return false }
      }
      for (token, value) in [(WSI_TOKEN_HTTP_ETAG, file.etag), (WSI_TOKEN_HTTP_CACHE_CONTROL, "no-cache")] {
        let bytes = Array(value.utf8)
        guard lws_add_http_header_by_token(wsi, token, bytes, Int32(bytes.count), &cursor, end) == 0 else {
          return false
        }
      }
      return lws_finalize_write_http_header(wsi, start, &cursor, end) == 0
    }
    guard headersOK else { return false }
    let isHead = lws_hdr_total_length(wsi, WSI_TOKEN_HEAD_URI) > 0
    guard !notModified, !isHead, !file.body.isEmpty else { return true }
    var payload = [UInt8](repeating: 0, count: headroom) + file.body
    return payload.withUnsafeMutableBufferPointer { buffer in
      lws_write(wsi, buffer.baseAddress! + headroom, file.body.count, LWS_WRITE_HTTP_FINAL) >= 0
    }
  }
}
