/// A request the server answers with an error status and then closes: a malformed
/// WebSocket upgrade, a refused one, headers over the limit, an unsupported method.
///
/// Written by the transport itself in HTTP/1.1 (lws' own error responses say `HTTP/1.0`
/// before it has parsed the request's version, which some clients cannot parse).
struct HTTPRefusal: Sendable, Equatable {
  var status: Int
  var message: String
  /// Extra response headers, e.g. `Sec-WebSocket-Version: 13` with a 426.
  var headers: [String] = []

  static let headersTooLarge = HTTPRefusal(status: 431, message: "request headers too large")
  static let connectNotAllowed = HTTPRefusal(status: 405, message: "CONNECT is not supported")
  static let unknownMethod = HTTPRefusal(status: 501, message: "method not implemented")
  static let unknownHost = HTTPRefusal(status: 421, message: "this server does not answer that host name")

  /// The status line's reason phrase.
  var reason: String {
    switch status {
    case 400: "Bad Request"
    case 401: "Unauthorized"
    case 403: "Forbidden"
    case 404: "Not Found"
    case 405: "Method Not Allowed"
    case 421: "Misdirected Request"
    case 426: "Upgrade Required"
    case 431: "Request Header Fields Too Large"
    case 501: "Not Implemented"
    case 503: "Service Unavailable"
    default: "Error"
    }
  }

  /// The whole response: status line, headers, a short text body (none for `HEAD`).
  func response(serverName: String, includeBody: Bool = true) -> [UInt8] {
    let body = message + "\n"
    var head = "HTTP/1.1 \(status) \(reason)\r\nServer: \(serverName)\r\n"
    head += "Content-Type: text/plain; charset=utf-8\r\nContent-Length: \(body.utf8.count)\r\n"
    head += "Cache-Control: no-store\r\nConnection: close\r\n"
    for header in headers { head += header + "\r\n" }
    head += "\r\n"
    return Array(head.utf8) + (includeBody ? Array(body.utf8) : [])
  }
}
