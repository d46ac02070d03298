/// Strings: unescaped ones sliced straight from the input, escapes decoded into a reused
/// buffer, UTF-8 validated on the way.
extension JSONParser {
  /// Parses a string starting at its opening quote.
  mutating func parseString() throws(JSONParsingError) -> String {
    position += 1
    let start = position
    while position < bytes.count {
      let byte = bytes[position]
      if byte == UInt8(ascii: "\"") {
        let string = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
        position += 1
        return string
      }
      if byte == UInt8(ascii: "\\") { return try parseEscapedString(from: start) }
      if byte < 0x20 { throw JSONParsingError(.controlCharacterInString, at: position) }
      if byte < 0x80 {
        position += 1
      } else {
        position += try validateMultibyteScalar(at: position)
      }
    }
    throw JSONParsingError(.unexpectedEndOfInput, at: position)
  }

  /// Continues a string that has escapes, copying its decoded bytes into `scratch`.
  mutating func parseEscapedString(from start: Int) throws(JSONParsingError) -> String {
    scratch.removeAll(keepingCapacity: true)
    scratch.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<position]))
    while position < bytes.count {
      let byte = bytes[position]
      switch byte {
      case UInt8(ascii: "\""):
        position += 1
        return String(decoding: scratch, as: UTF8.self)
      case UInt8(ascii: "\\"):
        try parseEscape()
      case 0..<0x20:
        throw JSONParsingError(.controlCharacterInString, at: position)
      case 0..<0x80:
        scratch.append(byte)
        position += 1
      default:
        let length = try validateMultibyteScalar(at: position)
        scratch.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[position..<position + length]))
        position += length
      }
    }
    throw JSONParsingError(.unexpectedEndOfInput, at: position)
  }

  /// Decodes the escape at `position` (a backslash) into `scratch`.
  mutating func parseEscape() throws(JSONParsingError) {
    let escapeStart = position
    position += 1
    guard position < bytes.count else { throw JSONParsingError(.unexpectedEndOfInput, at: position) }
    let byte = bytes[position]
    position += 1
    switch byte {
    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): scratch.append(byte)
    case UInt8(ascii: "b"): scratch.append(0x08)
    case UInt8(ascii: "f"): scratch.append(0x0C)
    case UInt8(ascii: "n"): scratch.append(0x0A)
    case UInt8(ascii: "r"): scratch.append(0x0D)
    case UInt8(ascii: "t"): scratch.append(0x09)
    case UInt8(ascii: "u"):
      let unit = try parseHexQuad()
      var scalarValue = UInt32(unit)
      switch unit {
      case 0xD800...0xDBFF:
        // A high surrogate must be followed at once by an escaped low surrogate.
        guard position + 1 < bytes.count, bytes[position] == UInt8(ascii: "\\"),
          bytes[position + 1] == UInt8(ascii: "u")
        else { throw JSONParsingError(.loneSurrogate, at: escapeStart) }
        position += 2
        let low = try parseHexQuad()
        guard (0xDC00...0xDFFF).contains(low) else { throw JSONParsingError(.loneSurrogate, at: escapeStart) }
        scalarValue = 0x10000 + ((UInt32(unit) - 0xD800) << 10) + (UInt32(low) - 0xDC00)
      case 0xDC00...0xDFFF:
        throw JSONParsingError(.loneSurrogate, at: escapeStart)
      default:
        break
      }
      scratch.append(contentsOf: UTF8.encode(Unicode.Scalar(scalarValue)!)!)
    default:
      throw JSONParsingError(.invalidEscape, at: escapeStart)
    }
  }

  mutating func parseHexQuad() throws(JSONParsingError) -> UInt16 {
    guard position + 4 <= bytes.count else { throw JSONParsingError(.unexpectedEndOfInput, at: bytes.count) }
    var value: UInt16 = 0
    for _ in 0..<4 {
      let byte = bytes[position]
      let digit: UInt8
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
      case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
      case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
      default: throw JSONParsingError(.invalidEscape, at: position)
      }
      value = value << 4 | UInt16(digit)
      position += 1
    }
    return value
  }

  /// Checks the well-formed UTF-8 sequence (RFC 3629) that starts with a byte >= 0x80 at
  /// `start` and returns its length.
  func validateMultibyteScalar(at start: Int) throws(JSONParsingError) -> Int {
    let lead = bytes[start]
    let length: Int
    var secondRange: ClosedRange<UInt8> = 0x80...0xBF
    switch lead {
    case 0xC2...0xDF: length = 2
    case 0xE0:
      length = 3
      secondRange = 0xA0...0xBF
    case 0xE1...0xEC, 0xEE...0xEF: length = 3
    case 0xED:
      length = 3
      secondRange = 0x80...0x9F
    case 0xF0:
      length = 4
      secondRange = 0x90...0xBF
    case 0xF1...0xF3: length = 4
    case 0xF4:
      length = 4
      secondRange = 0x80...0x8F
    default: throw JSONParsingError(.invalidUTF8, at: start)
    }
    guard start + length <= bytes.count else { throw JSONParsingError(.invalidUTF8, at: start) }
    guard secondRange.contains(bytes[start + 1]) else { throw JSONParsingError(.invalidUTF8, at: start) }
    for offset in 2..<max(2, length) where bytes[start + offset] & 0xC0 != 0x80 {
      throw JSONParsingError(.invalidUTF8, at: start)
    }
    return length
  }
}
