import Foundation

/// Decides whether a WebSocket upgrade's `Origin` may connect: the defence against
/// cross-site WebSocket hijacking (a page on another site opening a socket with the
/// user's cookies).
///
/// An upgrade without `Origin` (not a browser) is accepted. One with `Origin` is
/// accepted when the origin's scheme is the server's (`https` under TLS, else `http`)
/// and its host and port equal those of the request's `Host` header (the page's own
/// server), or when it matches an entry of the allow-list. The scheme counts: a page
/// served over `https` by another program on the same port number is another origin.
///
///     let policy = OriginPolicy(allowedOrigins: ["localhost:5173"], tls: false)
///     policy.accepts(origin: "http://127.0.0.1:8080", host: "127.0.0.1:8080")  // true
///     policy.accepts(origin: "https://evil.example", host: "127.0.0.1:8080")   // false
struct OriginPolicy: Sendable {
  /// A host (lowercased, IPv6 in brackets) and a port, or any port when `nil`.
  struct Authority: Hashable, Sendable {
    var host: String
    var port: Int?
  }

  private let allowed: [Authority]
  private let defaultPort: Int
  private let tls: Bool

  /// - Parameters:
  ///   - allowedOrigins: full origins (`https://a.example`), `host:port` pairs, or bare
  ///     hosts (any port); entries that cannot be parsed are ignored.
  ///   - tls: whether the server speaks TLS, which decides the default port of a `Host`
  ///     header without one.
  init(allowedOrigins: [String], tls: Bool) {
    allowed = allowedOrigins.compactMap { entry in
      let trimmed = entry.trimmingWhitespace()
      return trimmed.contains("://")
        ? Self.parseOrigin(trimmed) : Self.parseAuthority(trimmed, defaultPort: nil)
    }
    defaultPort = tls ? 443 : 80
    self.tls = tls
  }

  /// Whether an upgrade with these `Origin` and `Host` header values may proceed.
  func accepts(origin: String?, host: String?) -> Bool {
    guard let origin else { return true }
    guard let source = Self.parseOrigin(origin.trimmingWhitespace()) else { return false }
    if let host, let target = Self.parseAuthority(host.trimmingWhitespace(), defaultPort: defaultPort),
      target == source, Self.isSecure(origin.trimmingWhitespace()) == tls
    {
      return true
    }
    return allowed.contains { entry in
      entry.host == source.host && (entry.port == nil || entry.port == source.port)
    }
  }

  /// Whether the origin's scheme is `https` (or `wss`).
  static func isSecure(_ origin: String) -> Bool {
    let scheme = origin.prefix { $0 != ":" }.lowercased()
    return scheme == "https" || scheme == "wss"
  }

  /// `scheme://host[:port]` with the scheme's default port; `nil` for `null`, unknown
  /// schemes without a port, or anything malformed.
  static func parseOrigin(_ origin: String) -> Authority? {
    guard let separator = origin.range(of: "://") else { return nil }
    let scheme = origin[..<separator.lowerBound].lowercased()
    var rest = origin[separator.upperBound...]
    if let slash = rest.firstIndex(of: "/") { rest = rest[..<slash] }
    let defaultPort: Int? =
      switch scheme {
      case "http", "ws": 80
      case "https", "wss": 443
      default: nil
      }
    guard let authority = parseAuthority(String(rest), defaultPort: defaultPort), authority.port != nil else {
      return nil
    }
    return authority
  }

  /// `host[:port]` or `[v6]:port`; a missing port becomes `defaultPort`.
  static func parseAuthority(_ text: String, defaultPort: Int?) -> Authority? {
    guard !text.isEmpty, !text.contains("@") else { return nil }
    let host: Substring
    let portText: Substring?
    if text.hasPrefix("[") {
      guard let close = text.firstIndex(of: "]") else { return nil }
      host = text[...close]
      let after = text[text.index(after: close)...]
      if after.isEmpty {
        portText = nil
      } else {
        guard after.hasPrefix(":") else { return nil }
        portText = after.dropFirst()
      }
    } else {
      let parts = text.split(separator: ":", omittingEmptySubsequences: false)
      guard parts.count <= 2 else { return nil }
      host = parts[0]
      portText = parts.count == 2 ? parts[1] : nil
    }
    guard !host.isEmpty else { return nil }
    var port = defaultPort
    if let portText {
      guard let value = Int(portText), (1...65_535).contains(value) else { return nil }
      port = value
    }
    return Authority(host: host.lowercased(), port: port)
  }
}

extension String {
  fileprivate func trimmingWhitespace() -> String {
    var view = Substring(self)
    while let first = view.first, first == " " || first == "\t" { view = view.dropFirst() }
    while let last = view.last, last == " " || last == "\t" { view = view.dropLast() }
    return String(view)
  }
}
