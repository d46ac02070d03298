/// Decides whether a request's `Host` header names this server: the defence against DNS
/// rebinding, where a page of `attacker.example`, whose name the attacker then points at
/// `127.0.0.1` or an intranet address, is same-origin with itself and reaches the
/// server with the browser's help. Only the `Host` header gives it away.
///
/// Accepted: a host in the allow-list, a loopback name (`localhost`, `127.x.x.x`,
/// `[::1]`), any IP address literal (no DNS name, nothing to rebind), and a request
/// without `Host` (not a browser). Any other name is accepted only by a server that
/// listens beyond loopback and was given no allow-list (a container behind a proxy, say,
/// reached by names it cannot know).
///
///     let policy = HostPolicy(allowedHosts: ["example.com"], listensOnLoopbackOnly: true)
///     policy.accepts("example.com:8080")       // true
///     policy.accepts("rebind.example:8080")    // false
struct HostPolicy: Sendable {
  private let allowed: Set<String>
  private let acceptsAnyName: Bool

  /// - Parameters:
  ///   - allowedHosts: host names, without ports (any case).
  ///   - listensOnLoopbackOnly: whether the server is bound to a loopback address only.
  init(allowedHosts: [String], listensOnLoopbackOnly: Bool) {
    allowed = Set(allowedHosts.map { $0.lowercased() })
    acceptsAnyName = allowed.contains("*") || (allowed.isEmpty && !listensOnLoopbackOnly)
  }

  /// Whether a request whose `Host` header is `host` may be answered.
  func accepts(_ host: String?) -> Bool {
    guard let host, !host.isEmpty else { return true }
    guard let name = OriginPolicy.parseAuthority(host, defaultPort: nil)?.host else { return false }
    if acceptsAnyName || allowed.contains(name) { return true }
    return Self.isLoopback(name) || Self.isAddressLiteral(name)
  }

  static func isLoopback(_ name: String) -> Bool {
    name == "localhost" || name.hasSuffix(".localhost") || name == "[::1]"
      || (name.hasPrefix("127.") && isAddressLiteral(name))
  }

  /// An IPv4 address in dotted decimal, or an IPv6 address in brackets.
  static func isAddressLiteral(_ name: String) -> Bool {
    if name.hasPrefix("[") { return true }
    let parts = name.split(separator: ".", omittingEmptySubsequences: false)
    return parts.count == 4 && parts.allSatisfy { part in UInt8(part) != nil }
  }

  /// Whether a `--host` value binds loopback only.
  static func bindsLoopbackOnly(_ host: String) -> Bool {
    host == "localhost" || host == "::1" || host.hasPrefix("127.")
  }
}
