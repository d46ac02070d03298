/// A JSON Pointer (RFC 6901): the path of one value inside a document, such as
/// `/rows/3/title`.
///
/// Tokens are kept unescaped; ``description`` escapes `~` as `~0` and `/` as `~1`, so any
/// key round-trips (`"a/b"` is the token of `/a~1b`). A token names an object member or,
/// when it is a number without leading zeros, an array index; `-` names the position
/// after an array's last element.
///
/// ```swift
/// let pointer = try JSONPointer("/users/a~1b/0")
/// pointer.tokens                                     // ["users", "a/b", "0"]
/// JSONPointer.root.appending("m~n").description       // "/m~0n"
/// ```
public struct JSONPointer: Hashable, Sendable, CustomStringConvertible {
  /// The unescaped reference tokens, outermost first; empty for the whole document.
  public var tokens: [String]

  /// The pointer to the whole document (`""`).
  public static let root = JSONPointer(tokens: [])

  public init(tokens: [String]) {
    self.tokens = tokens
  }

  /// Parses the string form of a pointer: empty, or `/` followed by tokens separated by
  /// `/`, with `~0` and `~1` escapes.
  /// - Throws: ``JSONPatchError/invalidPointer(_:)`` if it does not start with `/` or has
  ///   a `~` not followed by `0` or `1`.
  public init(_ string: String) throws(JSONPatchError) {
    if string.isEmpty {
      tokens = []
      return
    }
    guard string.utf8.first == UInt8(ascii: "/") else { throw .invalidPointer(string) }
    var parsed: [String] = []
    for rawToken in string.utf8.dropFirst().split(
      separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
    {
      guard rawToken.contains(UInt8(ascii: "~")) else {
        parsed.append(String(decoding: rawToken, as: UTF8.self))
        continue
      }
      var bytes: [UInt8] = []
      var iterator = rawToken.makeIterator()
      while let byte = iterator.next() {
        guard byte == UInt8(ascii: "~") else {
          bytes.append(byte)
          continue
        }
        switch iterator.next() {
        case UInt8(ascii: "0"): bytes.append(UInt8(ascii: "~"))
        case UInt8(ascii: "1"): bytes.append(UInt8(ascii: "/"))
        default: throw .invalidPointer(string)
        }
      }
      parsed.append(String(decoding: bytes, as: UTF8.self))
    }
    tokens = parsed
  }

  /// The string form, with `~` and `/` in tokens escaped.
  public var description: String {
    var result = ""
    for token in tokens {
      result.append("/")
      if token.utf8.contains(where: { $0 == UInt8(ascii: "~") || $0 == UInt8(ascii: "/") }) {
        result.append(token.replacingEscapes())
      } else {
        result.append(token)
      }
    }
    return result
  }

  /// This pointer with one more token.
  public func appending(_ token: String) -> JSONPointer {
    JSONPointer(tokens: tokens + [token])
  }

  /// This pointer with an array index appended.
  public func appending(index: Int) -> JSONPointer {
    appending(String(index))
  }

  /// The pointer to the container of this location, or `nil` for the root.
  public var parent: JSONPointer? {
    tokens.isEmpty ? nil : JSONPointer(tokens: Array(tokens.dropLast()))
  }

  /// Whether `other` lies strictly inside the value this pointer names.
  public func isProperPrefix(of other: JSONPointer) -> Bool {
    tokens.count < other.tokens.count && other.tokens.starts(with: tokens)
  }

  /// The array index a token names: decimal digits without a leading zero (RFC 6901).
  static func arrayIndex(_ token: String) -> Int? {
    let utf8 = token.utf8
    guard let first = utf8.first, first >= UInt8(ascii: "0"), first <= UInt8(ascii: "9"),
      first != UInt8(ascii: "0") || utf8.count == 1, utf8.count <= 18
    else { return nil }
    var value = 0
    for byte in utf8 {
      guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
      value = value * 10 + Int(byte - UInt8(ascii: "0"))
    }
    return value
  }
}

extension String {
  /// The RFC 6901 escaped form of a reference token.
  fileprivate func replacingEscapes() -> String {
    var result = ""
    for character in unicodeScalars {
      switch character {
      case "~": result.append("~0")
      case "/": result.append("~1")
      default: result.unicodeScalars.append(character)
      }
    }
    return result
  }
}
