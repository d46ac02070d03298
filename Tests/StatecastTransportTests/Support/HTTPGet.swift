import Foundation

/// A plain HTTP/1.1 response, as read off the wire by ``httpGet(port:path:headers:)``.
struct HTTPResponse {
  var status: Int
  var headers: [String: String]
  var body: [UInt8]

  var text: String { String(decoding: body, as: UTF8.self) }
  var contentType: String? { headers["content-type"] }
}

/// Sends one `GET` (or `method`) with `Connection: close` and reads the whole response.
/// The path is sent as given, so tests can send what a browser would normalise away.
func httpGet(
  port: Int, path: String, method: String = "GET", headers: [String: String] = [:]
) throws -> HTTPResponse {
  let socket = try RawSocket(port: port)
  var request = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n"
  for (name, value) in headers { request += "\(name): \(value)\r\n" }
  try socket.write(request + "\r\n")
  let raw = try socket.readToEnd()
  guard let split = raw.firstRange(of: Array("\r\n\r\n".utf8)) else {
    throw RawSocket.Failure(description: "no header end in \(String(decoding: raw, as: UTF8.self))")
  }
  let head = String(decoding: raw[..<split.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
  let statusParts = head[0].split(separator: " ")
  guard statusParts.count >= 2, let status = Int(statusParts[1]) else {
    throw RawSocket.Failure(description: "bad status line \(head[0])")
  }
  var fields: [String: String] = [:]
  for line in head.dropFirst() {
    guard let colon = line.firstIndex(of: ":") else { continue }
    fields[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(
      in: .whitespaces)
  }
  return HTTPResponse(status: status, headers: fields, body: Array(raw[split.upperBound...]))
}
