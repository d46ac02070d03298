import Foundation

/// Where a `ws://` or `wss://` URL points, in the pieces libwebsockets asks for.
struct ConnectTarget: Sendable, Equatable {
  var address: String
  var port: Int
  /// Path and query, starting with `/`.
  var path: String
  /// The `Host` header: the host, plus the port when it is not the scheme's default
  /// (as browsers send it, so that the server's same-origin check can compare).
  var hostHeader: String
  var tls: Bool

  init?(url: String) {
    guard let components = URLComponents(string: url), let scheme = components.scheme?.lowercased(),
      scheme == "ws" || scheme == "wss", let host = components.host, !host.isEmpty
    else { return nil }
    tls = scheme == "wss"
    let defaultPort = tls ? 443 : 80
    port = components.port ?? defaultPort
    address = host.hasPrefix("[") ? String(host.dropFirst().dropLast()) : host
    let bracketed = address.contains(":") ? "[\(address)]" : address
    hostHeader = port == defaultPort ? bracketed : "\(bracketed):\(port)"
    var path = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
    if let query = components.percentEncodedQuery { path += "?\(query)" }
    self.path = path
  }
}

/// A connect waiting for the service thread to start it.
struct ConnectRequest: @unchecked Sendable {
  // Sendable: the continuation is resumed exactly once, by the service thread (or by the
  // caller when the request is refused before being queued).
  var target: ConnectTarget
  var subprotocols: [String]
  var origin: String?
  var allowInsecureTLS: Bool
  var connection: WebSocketConnection
  var continuation: CheckedContinuation<Void, any Error>
}
