public import Statecast

/// What a server's authenticator decides about a browser opening its WebSocket.
///
/// ```swift
/// configuration.authenticate = { request in
///   guard let cookie = request.cookie(named: "sid") else { return .guest }
///   guard let user = SignedCookie.verify(cookie, key: key) else {
///     return .refused(status: 401, reason: "session expired")
///   }
///   return .viewer(Viewer(id: user.id, name: user.name))
/// }
/// ```
public enum Authentication: Sendable {
  /// The socket's session belongs to this viewer.
  case viewer(Viewer)
  /// The socket's session belongs to a guest with a generated id and name.
  case guest
  /// A guest, as ``guest``, and the upgrade's response deletes the cookie `name` at every
  /// path a browser could send it to `/ws` from (`/` and `/ws`). For a cookie that does
  /// not verify (altered, planted by another site of the host, signed with a retired
  /// secret): refusing the upgrade would lock its holder out, the sign-in page included,
  /// while a guest can always sign in again, and nobody gains an identity.
  case guestClearingCookie(named: String)
  /// The upgrade is answered with HTTP `status` (401 or 403; anything else becomes 403)
  /// and `reason` as a short text body; no WebSocket is opened.
  case refused(status: Int, reason: String)
}

/// The WebSocket upgrade request an authenticator looks at: its path and query, the
/// peer's address, its cookies and headers.
///
/// Every common header is readable (`Cookie`, `Authorization`, `X-Forwarded-For`,
/// `User-Agent`, ...); an uncommon one only when
/// ``ServerConfiguration/authenticationHeaders`` names it.
public struct UpgradeRequestInfo: Sendable {
  let headers: UpgradeHeaders

  /// The request target: the path, then `?` and the query when there is one.
  public var path: String { headers.path }
  /// The peer's IP address as text (a proxy's, behind one: see `X-Forwarded-For`).
  public var peerAddress: String { headers.peerAddress }
  /// The value of the header `name` (any case), or `nil` when absent.
  public func header(_ name: String) -> String? { headers.header(name) }
  /// The value of the cookie `name`, or `nil` when the request does not carry it.
  public func cookie(named name: String) -> String? { headers.cookie(named: name) }
  /// Every value of the cookie `name`. More than one means a cookie of that name was
  /// planted beside the real one (by another site of the host, at a longer path, which
  /// a browser sends first): none can be trusted.
  public func cookies(named name: String) -> [String] { headers.cookies(named: name) }

  /// A request as the server sees it (tests of authenticators make them too).
  public init(path: String, peerAddress: String = "", headers: [String: String] = [:]) {
    self.headers = UpgradeHeaders(path: path, peerAddress: peerAddress, fields: headers)
  }

  init(_ headers: UpgradeHeaders) {
    self.headers = headers
  }
}

extension Authentication {
  /// The transport's upgrade check for a server authenticator; `secure` when the server
  /// speaks TLS (a cleared cookie then carries `Secure`, as one it replaces must).
  static func upgradeCheck(
    _ authenticate: @escaping @Sendable (UpgradeRequestInfo) -> Authentication, secure: Bool
  ) -> UpgradeCheck {
    { headers in
      switch authenticate(UpgradeRequestInfo(headers)) {
      case .viewer(let viewer): .accept(identity: viewer)
      case .guest: .accept(identity: nil)
      case .guestClearingCookie(let name):
        .accept(
          identity: nil,
          responseHeaders: ["/", "/ws"].map { path in
            "Set-Cookie: \(name)=; Path=\(path); Max-Age=0; HttpOnly; SameSite=Lax"
              + (secure ? "; Secure" : "")
          })
      case .refused(let status, let reason): .refuse(status: status, reason: reason)
      }
    }
  }
}
