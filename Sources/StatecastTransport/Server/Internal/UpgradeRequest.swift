import Foundation

/// The parts of a WebSocket upgrade request that RFC 6455 section 4.2.1 requires, as
/// the request carried them, and the refusal a malformed one earns.
///
/// Why the transport checks them: libwebsockets 4.1 accepts an upgrade with a key that
/// is not base64 of 16 bytes, with two keys, with any `Sec-WebSocket-Version` or none,
/// and over HTTP/1.0.
///
///     UpgradeRequest(httpVersion: "HTTP/1.1", keys: ["abc"], versions: ["13"]).refusal
///     // 400: Sec-WebSocket-Key must be base64 of 16 bytes
struct UpgradeRequest: Sendable, Equatable {
  /// The request line's version, e.g. `HTTP/1.1`.
  var httpVersion: String?
  /// Every `Sec-WebSocket-Key` header, in order.
  var keys: [String]
  /// Every `Sec-WebSocket-Version` header, in order.
  var versions: [String]

  /// `nil` for a well-formed upgrade; otherwise 400, or 426 (with the version the
  /// server speaks) for a missing or other version.
  var refusal: HTTPRefusal? {
    guard httpVersion == "HTTP/1.1" else {
      return HTTPRefusal(status: 400, message: "a WebSocket upgrade needs HTTP/1.1")
    }
    guard keys.count == 1, Self.isValidKey(keys[0]) else {
      return HTTPRefusal(status: 400, message: "Sec-WebSocket-Key must be one base64 value of 16 bytes")
    }
    guard versions.count == 1, versions[0].trimmingCharacters(in: .whitespaces) == "13" else {
      return HTTPRefusal(
        status: 426, message: "Sec-WebSocket-Version 13 is required", headers: ["Sec-WebSocket-Version: 13"])
    }
    return nil
  }

  /// Base64 (with padding) of exactly 16 bytes: 24 characters.
  static func isValidKey(_ key: String) -> Bool {
    let trimmed = key.trimmingCharacters(in: .whitespaces)
    guard trimmed.utf8.count == 24, let data = Data(base64Encoded: trimmed) else { return false }
    return data.count == 16
  }
}
