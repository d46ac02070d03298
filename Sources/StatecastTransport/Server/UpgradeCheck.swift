/// What an upgrade check sees of a WebSocket upgrade request at `/ws`: its path and
/// query, the peer's address, and its headers.
///
/// Every header libwebsockets knows by name is here (about eighty common ones, among
/// them `Cookie`, `Authorization`, `X-Forwarded-For`, `User-Agent`), plus the headers
/// lws does not know whose names ``TransportConfiguration/upgradeHeaderNames`` lists.
///
///     configuration.upgradeCheck = { request in
///       guard let token = request.cookie(named: "session") else {
///         return .refuse(status: 401, reason: "sign in first")
///       }
///       return verify(token).map { .accept(identity: $0) } ?? .refuse(status: 403, reason: "bad token")
///     }
package struct UpgradeHeaders: Sendable {
  /// The request target: the path, then `?` and the query when there is one.
  package var path: String
  /// The peer's IP address as text (`127.0.0.1`, `::1`), or empty if unknown.
  package var peerAddress: String
  /// Header values by lowercased name; a repeated header's values joined with `,`.
  package var fields: [String: String]

  package init(path: String, peerAddress: String, fields: [String: String]) {
    self.path = path
    self.peerAddress = peerAddress
    self.fields = Dictionary(uniqueKeysWithValues: fields.map { ($0.key.lowercased(), $0.value) })
  }

  /// The value of the header `name` (any case), or `nil` when the request has none.
  package func header(_ name: String) -> String? {
    fields[name.lowercased()]
  }

  /// The value of the cookie `name` in the `Cookie` header (the first if repeated).
  package func cookie(named name: String) -> String? {
    cookies(named: name).first
  }

  /// Every value of the cookie `name`, in the order the request carries them. A browser
  /// sends one per path and domain it holds the name for: more than one means another
  /// site of the host may have planted one (cookies ignore ports), and none can be
  /// told apart from the others.
  package func cookies(named name: String) -> [String] {
    guard let cookies = fields["cookie"] else { return [] }
    var values: [String] = []
    // Several `Cookie` headers arrive joined with ","; cookie values cannot hold one.
    for pair in cookies.split(whereSeparator: { $0 == ";" || $0 == "," }) {
      let trimmed = pair.drop { $0 == " " || $0 == "\t" }
      guard let equals = trimmed.firstIndex(of: "=") else { continue }
      if trimmed[..<equals] == name {
        var value = trimmed[trimmed.index(after: equals)...]
        while value.last == " " || value.last == "\t" { value = value.dropLast() }
        if value.count >= 2, value.first == "\"", value.last == "\"" { value = value.dropFirst().dropLast() }
        values.append(String(value))
      }
    }
    return values
  }
}

/// An upgrade check's answer: open the WebSocket with an identity the handler receives
/// in ``TransportHandler/transportOpened(_:identity:)``, or refuse the upgrade.
package enum UpgradeDecision: Sendable {
  /// Open the WebSocket; `identity` is handed to the handler as it is. `responseHeaders`
  /// (whole lines, `Set-Cookie: name=; Path=/; Max-Age=0`) are added to the `101`
  /// response: a browser handles cookies set there as on any response.
  case accept(identity: (any Sendable)?, responseHeaders: [String] = [])
  /// Answer HTTP `status` (401 or 403; anything else becomes 403) with `reason` as a
  /// short text body, before any WebSocket exists, and close.
  case refuse(status: Int, reason: String)
}

/// Decides whether an upgrade at `/ws` may open a WebSocket. Runs on the transport's
/// service thread, once per upgrade, after the origin check: it must be quick and never
/// block (check a signed cookie or token, never query a database or the network).
package typealias UpgradeCheck = @Sendable (UpgradeHeaders) -> UpgradeDecision
