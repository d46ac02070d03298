import COpenSSL
public import Foundation
public import Statecast

/// A viewer kept in a browser cookie, signed with a server secret so that a browser can
/// neither forge one nor change its name or id, and ending at a time it carries.
///
/// The value is `PAYLOAD.SIGNATURE`: the viewer's id and name, the expiry (`exp`, Unix
/// seconds) and the id of the key that signed it (`kid`) as JSON, and the HMAC-SHA256 of
/// that JSON under the key, both base64url. An authenticator reads it on the WebSocket
/// upgrade (the browser sends the page's cookies with it): no cookie is a guest, a valid
/// one is that viewer, one that does not verify (altered, expired, of a retired key) is a
/// guest's and is cleared, so that its holder can sign in again.
///
/// Keys rotate without signing everyone out: sign with the new secret and keep the old
/// one in `previousSecrets` until the cookies it signed have expired; dropping a secret
/// revokes every cookie it signed.
///
/// ```swift
/// let cookies = ViewerCookie(secret: secret, previousSecrets: [retired])
/// configuration.authenticate = { request in
///   let values = request.cookies(named: ViewerCookie.name(secure: false))
///   guard !values.isEmpty else { return .guest }
///   guard values.count == 1, let viewer = cookies.viewer(from: values[0]) else {
///     return .guestClearingCookie(named: ViewerCookie.name(secure: false))
///   }
///   return .viewer(viewer)
/// }
/// ```
public struct ViewerCookie: Sendable {
  /// The cookie's name over plain HTTP.
  public static let name = "statecast_viewer"

  /// The cookie's name: under TLS with the `__Host-` prefix, which a browser accepts only
  /// with `Secure`, `Path=/` and no `Domain`, so no other site can plant a narrower one.
  public static func name(secure: Bool) -> String {
    secure ? "__Host-" + name : name
  }

  private struct Key: Sendable {
    var id: String
    var secret: [UInt8]
  }

  /// The signing key first, then the previous ones, still accepted.
  private let keys: [Key]
  /// How long a cookie is valid after it is signed.
  public let lifetime: Duration
  private let now: @Sendable () -> Date

  /// - Parameters:
  ///   - secret: at least 32 random bytes, the same for every process that reads the
  ///     cookie (see ``generateSecret()``); it signs every new cookie.
  ///   - previousSecrets: retired secrets whose cookies are still accepted until they
  ///     expire.
  ///   - lifetime: how long a signed cookie stays valid (default 30 days).
  ///   - now: the clock, replaceable in tests.
  public init(
    secret: [UInt8], previousSecrets: [[UInt8]] = [], lifetime: Duration = .seconds(30 * 86_400),
    now: @escaping @Sendable () -> Date = { Date() }
  ) {
    precondition(secret.count >= 32, "a cookie secret needs at least 32 bytes")
    keys = ([secret] + previousSecrets).map { Key(id: Self.keyID(of: $0), secret: $0) }
    self.lifetime = lifetime
    self.now = now
  }

  /// The signed cookie value naming `viewer`, valid for ``lifetime`` from now.
  public func value(for viewer: Viewer) -> String {
    let expiry = Int64(now().timeIntervalSince1970) + lifetime.components.seconds
    let key = keys[0]
    let payload = Array(
      #"{"id":\#(jsonString(viewer.id)),"name":\#(jsonString(viewer.name)),"exp":\#(expiry),"kid":"\#(key.id)"}"#
        .utf8)
    return Self.base64url(payload) + "." + Self.base64url(Self.signature(of: payload, with: key.secret))
  }

  /// The viewer a cookie value names, or `nil` when it was not signed with one of the
  /// keys (altered, forged, malformed, of a retired key) or has expired.
  public func viewer(from value: String) -> Viewer? {
    let parts = value.split(separator: ".", omittingEmptySubsequences: false)
    guard parts.count == 2, let payload = Self.bytes(base64url: parts[0]),
      let claimed = Self.bytes(base64url: parts[1])
    else { return nil }
    struct Claims: Decodable {
      var id: String
      var name: String
      var exp: Int64
      var kid: String
    }
    // The key id is read before the signature is checked, only to pick the key.
    guard let claims = try? JSONDecoder().decode(Claims.self, from: Data(payload)),
      let key = keys.first(where: { $0.id == claims.kid })
    else { return nil }
    let expected = Self.signature(of: payload, with: key.secret)
    guard claimed.count == expected.count,
      CRYPTO_memcmp(claimed, expected, expected.count) == 0
    else { return nil }
    guard Int64(now().timeIntervalSince1970) < claims.exp else { return nil }
    return Viewer(id: claims.id, name: claims.name)
  }

  /// 32 bytes from the system's cryptographic generator.
  public static func generateSecret() -> [UInt8] {
    var generator = SystemRandomNumberGenerator()
    return (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }
  }

  /// A short public name of a secret: the first 6 bytes of its HMAC of a fixed text.
  static func keyID(of secret: [UInt8]) -> String {
    base64url(Array(signature(of: Array("statecast key id".utf8), with: secret).prefix(6)))
  }

  private static func signature(of payload: [UInt8], with secret: [UInt8]) -> [UInt8] {
    var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
    var length: UInt32 = 0
    _ = HMAC(EVP_sha256(), secret, Int32(secret.count), payload, payload.count, &digest, &length)
    return Array(digest.prefix(Int(length)))
  }

  private func jsonString(_ text: String) -> String {
    let data = (try? JSONEncoder().encode(text)) ?? Data("\"\"".utf8)
    return String(decoding: data, as: UTF8.self)
  }

  static func base64url(_ bytes: [UInt8]) -> String {
    Data(bytes).base64EncodedString()
      .replacingOccurrences(of: "+", with: "-")
      .replacingOccurrences(of: "/", with: "_")
      .replacingOccurrences(of: "=", with: "")
  }

  static func bytes(base64url text: Substring) -> [UInt8]? {
    var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
    base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
    return Data(base64Encoded: base64).map(Array.init)
  }
}
