/// Why some bytes are not a JSON text (RFC 8259), and where: a byte offset from the
/// start of the input, so a server can tell a client exactly what it got wrong.
///
/// ```swift
/// do { _ = try JSON(parsing: Array(#"{"a":01}"#.utf8)) }
/// catch { print(error) }   // leading zeros are not allowed in a number at byte 5
/// ```
public struct JSONParsingError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The kinds of malformed input.
  public enum Reason: Sendable, Equatable {
    /// The input ended inside a value (or was empty).
    case unexpectedEndOfInput
    /// A byte that cannot start or continue the value at this point.
    case unexpectedCharacter(UInt8)
    /// A complete value was followed by something other than whitespace.
    case trailingCharacters
    /// A number such as `01`, `1.`, `.5`, `-` or `1e`.
    case invalidNumber
    /// A leading zero followed by more digits, such as `007`.
    case leadingZero
    /// A number whose magnitude does not fit a `Double` (such as `1e400`).
    case numberOutOfRange
    /// A backslash followed by something other than `"\/bfnrtu`, or a bad `\u` escape.
    case invalidEscape
    /// A `\u` escape of half a surrogate pair without its other half.
    case loneSurrogate
    /// An unescaped control character (U+0000 to U+001F) inside a string.
    case controlCharacterInString
    /// Bytes that are not well-formed UTF-8.
    case invalidUTF8
    /// Arrays and objects nested deeper than the limit given to the parser.
    case tooDeep(limit: Int)
  }

  public var reason: Reason
  /// The offset, in bytes from the start of the input, of the offending byte.
  public var offset: Int

  public init(_ reason: Reason, at offset: Int) {
    self.reason = reason
    self.offset = offset
  }

  public var description: String {
    let what =
      switch reason {
      case .unexpectedEndOfInput: "unexpected end of input"
      case .unexpectedCharacter(let byte):
        (0x21...0x7E).contains(byte)
          ? "unexpected character '\(Character(Unicode.Scalar(byte)))'"
          : "unexpected byte 0x\(String(byte, radix: 16, uppercase: true))"
      case .trailingCharacters: "unexpected data after the JSON value"
      case .invalidNumber: "invalid number"
      case .leadingZero: "leading zeros are not allowed in a number"
      case .numberOutOfRange: "number out of range"
      case .invalidEscape: "invalid escape sequence in a string"
      case .loneSurrogate: "lone UTF-16 surrogate in a \\u escape"
      case .controlCharacterInString: "unescaped control character in a string"
      case .invalidUTF8: "invalid UTF-8"
      case .tooDeep(let limit): "nesting deeper than \(limit) levels"
      }
    return "\(what) at byte \(offset)"
  }
}
