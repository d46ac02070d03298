import COpenSSL
import Foundation
public import Statecast

/// A viewer kept in a browser cookie, signed with a server secret so that a browser can
/// neither forge one nor change its name or id.
///
/// The value is `PAYLOAD.SIGNATURE`: the viewer's id and name as JSON, and the
/// HMAC-SHA256 of that JSON under the secret, both base64url. An authenticator reads it
/// on the WebSocket upgrade (the browser sends the page's cookies with it): no cookie
/// is a guest, a valid one is that viewer, an altered one is refused.
///
/// ```swift
/// let cookies = ViewerCookie(secret: secret)
/// configuration.authenticate = { request in
///   guard let value = request.cookie(named: ViewerCookie.name) else { return .guest }
///   guard let viewer = cookies.viewer(from: value) else { return .refused(status: 403, reason: "bad sign-in") }
///   return .viewer(viewer)
/// }
/// ```
public struct ViewerCookie: Sendable {
  /// The cookie's name.
  public static let name = "statecast_viewer"

  private let secret: [UInt8]

  /// Cookies signed with `secret`.
  ///
  /// - Parameter secret: at least 32 random bytes, the same for every process that
  ///   reads the cookie (see ``generateSecret()``).
  public init(secret: [UInt8]) {
    precondition(secret.count >= 32, "a cookie secret needs at least 32 bytes")
    self.secret = secret
  }

  /// The signed cookie value naming `viewer`.
  public func value(for viewer: Viewer) -> String {
    let payload = Array(#"{"id":\#(jsonString(viewer.id)),"name":\#(jsonString(viewer.name))}"#.utf8)
    return Self.base64url(payload) + "." + Self.base64url(signature(of: payload))
  }

  /// The viewer a cookie value names, or `nil` when it was not signed with this secret
  /// (altered, forged, or malformed).
  public func viewer(from value: String) -> Viewer? {
    let parts = value.split(separator: ".", omittingEmptySubsequences: false)
    guard parts.count == 2, let payload = Self.bytes(base64url: parts[0]),
      let claimed = Self.bytes(base64url: parts[1])
    else { return nil }
    let expected = signature(of: payload)
    guard claimed.count == expected.count,
      CRYPTO_memcmp(claimed, expected, expected.count) == 0
    else { return nil }
    struct Claims: Decodable {
      var id: String
      var name: String
    }
    guard let claims = try? JSONDecoder().decode(Claims.self, from: Data(payload)) else { return nil }
    return Viewer(id: claims.id, name: claims.name)
  }

  /// 32 bytes from the system's cryptographic generator.
  public static func generateSecret() -> [UInt8] {
    var generator = SystemRandomNumberGenerator()
    return (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }
  }

  private func signature(of payload: [UInt8]) -> [UInt8] {
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
