import Foundation

/// Where a `ws://` or `wss://` URL points, in the pieces libwebsockets asks for.
package struct ConnectTarget: Sendable, Equatable {
  package var address: String
  package var port: Int
  /// Path and query, starting with `/`.
  package var path: String
  /// The `Host` header: the host, plus the port when it is not the scheme's default
  /// (as browsers send it, so that the server's same-origin check can compare).
  package var hostHeader: String
  package var tls: Bool

  package init?(url: String) {
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
package struct ConnectRequest: Sendable {
  /// The connection's id, from ``ClientEngine/makeID()``.
  package var id: UInt64
  package var target: ConnectTarget
  /// Offered in `Sec-WebSocket-Protocol`, in order of preference.
  package var subprotocols: [String]
  /// Sent as the `Origin` header, as given.
  package var origin: String?
  /// Accept a certificate that cannot be verified.
  package var allowInsecureTLS: Bool
  /// The largest message the connection reassembles; a larger one closes it with 1009.
  package var maxMessageSize: Int
  /// Told what happens to the connection.
  package var events: any ClientConnectionEvents

  package init(
    id: UInt64, target: ConnectTarget, subprotocols: [String], origin: String?, allowInsecureTLS: Bool,
    maxMessageSize: Int, events: any ClientConnectionEvents
  ) {
    self.id = id
    self.target = target
    self.subprotocols = subprotocols
    self.origin = origin
    self.allowInsecureTLS = allowInsecureTLS
    self.maxMessageSize = maxMessageSize
    self.events = events
  }
}
