import Logging

/// Makes the unguessable name of a session.
///
/// A session id is a bearer credential: whoever presents it in a `hello` takes the
/// session over after a reconnect. So it carries 128 bits from the system's
/// cryptographic generator (`SystemRandomNumberGenerator` reads `getrandom` on Linux),
/// more than a UUID's 122, written as 32 lowercase hex digits.
enum SessionID {
  static func make() -> String {
    var generator = SystemRandomNumberGenerator()
    let high = generator.next() as UInt64
    let low = generator.next() as UInt64
    return hex(high) + hex(low)
  }

  /// What logs show of a session id: its first 8 hex digits, enough to tell one
  /// session's lines from another's, and useless for taking the session over.
  /// Whether `id` has the form of a session id (32 lowercase hex digits), so that a
  /// `hello` with anything else is not looked up in storage.
  static func isWellFormed(_ id: String) -> Bool {
    id.utf8.count == 32 && id.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
  }

  static func logged(_ id: String) -> Logger.MetadataValue {
    .string(String(id.prefix(8)))
  }

  private static func hex(_ value: UInt64) -> String {
    let digits = String(value, radix: 16)
    return String(repeating: "0", count: 16 - digits.count) + digits
  }
}
