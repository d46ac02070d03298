/// A strict recursive-descent RFC 8259 parser over a buffer of UTF-8 bytes.
///
/// One pass, no intermediate tokens: strings without escapes are sliced straight into
/// `String`s, integers are accumulated exactly, and doubles take a fast exact path when
/// the digits allow it (falling back to the standard library's correctly rounded parse).
struct JSONParser {
  private let bytes: UnsafeBufferPointer<UInt8>
  private var position = 0
  private let maxDepth: Int
  private var depth = 0
  /// Reused to decode strings that contain escapes.
  private var scratch: [UInt8] = []

  init(_ bytes: UnsafeBufferPointer<UInt8>, maxDepth: Int) {
    self.bytes = bytes
    self.maxDepth = maxDepth
  }

  mutating func parseDocument() throws(JSONParsingError) -> JSON {
    skipWhitespace()
    let value = try parseValue()
    skipWhitespace()
    if position != bytes.count { throw JSONParsingError(.trailingCharacters, at: position) }
    return value
  }

  // MARK: - Values

  private mutating func parseValue() throws(JSONParsingError) -> JSON {
    guard position < bytes.count else { throw JSONParsingError(.unexpectedEndOfInput, at: position) }
    switch bytes[position] {
    case UInt8(ascii: "{"): return try parseObject()
    case UInt8(ascii: "["): return try parseArray()
    case UInt8(ascii: "\""): return .string(try parseString())
    case UInt8(ascii: "t"):
      try expectLiteral("true")
      return .bool(true)
    case UInt8(ascii: "f"):
      try expectLiteral("false")
      return .bool(false)
    case UInt8(ascii: "n"):
      try expectLiteral("null")
      return .null
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
      return try parseNumber()
    case let byte:
      throw JSONParsingError(.unexpectedCharacter(byte), at: position)
    }
  }

  private mutating func expectLiteral(_ literal: StaticString) throws(JSONParsingError) {
    let count = literal.utf8CodeUnitCount
    let start = literal.utf8Start
    for index in 0..<count {
      guard position < bytes.count else { throw JSONParsingError(.unexpectedEndOfInput, at: position) }
      guard bytes[position] == start[index] else {
        throw JSONParsingError(.unexpectedCharacter(bytes[position]), at: position)
      }
      position += 1
    }
  }

  private mutating func enterContainer() throws(JSONParsingError) {
    depth += 1
    if depth > maxDepth { throw JSONParsingError(.tooDeep(limit: maxDepth), at: position) }
  }

  private mutating func parseArray() throws(JSONParsingError) -> JSON {
    try enterContainer()
    position += 1
    var elements: [JSON] = []
    skipWhitespace()
    if try peek() == UInt8(ascii: "]") {
      position += 1
      depth -= 1
      return .array(elements)
    }
    while true {
      skipWhitespace()
      elements.append(try parseValue())
      skipWhitespace()
      switch try peek() {
      case UInt8(ascii: ","): position += 1
      case UInt8(ascii: "]"):
        position += 1
        depth -= 1
        return .array(elements)
      case let byte: throw JSONParsingError(.unexpectedCharacter(byte), at: position)
      }
    }
  }

  private mutating func parseObject() throws(JSONParsingError) -> JSON {
    try enterContainer()
    position += 1
    var members: [(key: String, value: JSON)] = []
    // Built once an object grows past a handful of members, to find repeated keys fast.
    var index: [String: Int]? = nil
    skipWhitespace()
    if try peek() == UInt8(ascii: "}") {
      position += 1
      depth -= 1
      return .object(JSONObject(uncheckedMembers: members))
    }
    while true {
      skipWhitespace()
      guard try peek() == UInt8(ascii: "\"") else {
        throw JSONParsingError(.unexpectedCharacter(bytes[position]), at: position)
      }
      let key = try parseString()
      skipWhitespace()
      guard try peek() == UInt8(ascii: ":") else {
        throw JSONParsingError(.unexpectedCharacter(bytes[position]), at: position)
      }
      position += 1
      skipWhitespace()
      let value = try parseValue()
      if index != nil {
        if let existing = index![key] {
          members[existing].value = value
        } else {
          index![key] = members.count
          members.append((key, value))
        }
      } else if let existing = members.firstIndex(where: { $0.key == key }) {
        members[existing].value = value
      } else {
        members.append((key, value))
        if members.count == 16 {
          index = Dictionary(uniqueKeysWithValues: members.enumerated().map { ($1.key, $0) })
        }
      }
      skipWhitespace()
      switch try peek() {
      case UInt8(ascii: ","): position += 1
      case UInt8(ascii: "}"):
        position += 1
        depth -= 1
        return .object(JSONObject(uncheckedMembers: members))
      case let byte: throw JSONParsingError(.unexpectedCharacter(byte), at: position)
      }
    }
  }

  private func peek() throws(JSONParsingError) -> UInt8 {
    guard position < bytes.count else { throw JSONParsingError(.unexpectedEndOfInput, at: position) }
    return bytes[position]
  }

  private mutating func skipWhitespace() {
    while position < bytes.count {
      switch bytes[position] {
      case UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\t"): position += 1
      default: return
      }
    }
  }

  // MARK: - Strings

  /// Parses a string starting at its opening quote.
  private mutating func parseString() throws(JSONParsingError) -> String {
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
  private mutating func parseEscapedString(from start: Int) throws(JSONParsingError) -> String {
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
  private mutating func parseEscape() throws(JSONParsingError) {
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

  private mutating func parseHexQuad() throws(JSONParsingError) -> UInt16 {
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
  private func validateMultibyteScalar(at start: Int) throws(JSONParsingError) -> Int {
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

  // MARK: - Numbers

  /// Exact powers of ten for the fast path (all exactly representable as doubles).
  private static let powersOfTen: [Double] = (0...22).map { exponent in
    var value = 1.0
    for _ in 0..<exponent { value *= 10 }
    return value
  }

  private mutating func parseNumber() throws(JSONParsingError) -> JSON {
    let start = position
    let negative = bytes[position] == UInt8(ascii: "-")
    if negative { position += 1 }

    // Integer part: "0" or [1-9][0-9]*.
    guard position < bytes.count, isDigit(bytes[position]) else {
      throw JSONParsingError(position < bytes.count ? .invalidNumber : .unexpectedEndOfInput, at: position)
    }
    var mantissa: UInt64 = 0
    var significantDigits = 0
    var droppedDigits = 0  // integer digits beyond what the mantissa holds
    if bytes[position] == UInt8(ascii: "0") {
      position += 1
      if position < bytes.count, isDigit(bytes[position]) { throw JSONParsingError(.leadingZero, at: start) }
    } else {
      while position < bytes.count, isDigit(bytes[position]) {
        if significantDigits < 19 {
          mantissa = mantissa &* 10 &+ UInt64(bytes[position] &- UInt8(ascii: "0"))
          significantDigits += 1
        } else {
          droppedDigits += 1
        }
        position += 1
      }
    }

    var isInteger = true
    var fractionDigits = 0
    if position < bytes.count, bytes[position] == UInt8(ascii: ".") {
      isInteger = false
      position += 1
      guard position < bytes.count, isDigit(bytes[position]) else {
        throw JSONParsingError(position < bytes.count ? .invalidNumber : .unexpectedEndOfInput, at: position)
      }
      while position < bytes.count, isDigit(bytes[position]) {
        if significantDigits < 19 {
          mantissa = mantissa &* 10 &+ UInt64(bytes[position] &- UInt8(ascii: "0"))
          significantDigits += 1
          fractionDigits += 1
        } else {
          droppedDigits += 1
        }
        position += 1
      }
    }

    var exponent = 0
    if position < bytes.count, bytes[position] | 0x20 == UInt8(ascii: "e") {
      isInteger = false
      position += 1
      var exponentNegative = false
      if position < bytes.count, bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-")
      {
        exponentNegative = bytes[position] == UInt8(ascii: "-")
        position += 1
      }
      guard position < bytes.count, isDigit(bytes[position]) else {
        throw JSONParsingError(position < bytes.count ? .invalidNumber : .unexpectedEndOfInput, at: position)
      }
      while position < bytes.count, isDigit(bytes[position]) {
        if exponent < 100_000 { exponent = exponent * 10 + Int(bytes[position] - UInt8(ascii: "0")) }
        position += 1
      }
      if exponentNegative { exponent = -exponent }
    }

    if isInteger && droppedDigits == 0 {
      if negative {
        if mantissa == 0 { return .double(-0.0) }
        if mantissa <= UInt64(Int64.max) + 1 { return .int(Int64(truncatingIfNeeded: 0 &- mantissa)) }
      } else if mantissa <= UInt64(Int64.max) {
        return .int(Int64(mantissa))
      }
    }

    // Clinger's fast path: an exact mantissa below 2^53 scaled by an exact power of ten.
    let decimalExponent = exponent - fractionDigits
    if droppedDigits == 0, mantissa < 1 << 53, abs(decimalExponent) <= 22 {
      var value = Double(mantissa)
      value =
        decimalExponent < 0
        ? value / Self.powersOfTen[-decimalExponent]
        : value * Self.powersOfTen[decimalExponent]
      return .double(negative ? -value : value)
    }
    let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
    guard let value = Double(text), value.isFinite else {
      throw JSONParsingError(.numberOutOfRange, at: start)
    }
    return .double(value)
  }

  private func isDigit(_ byte: UInt8) -> Bool {
    byte &- UInt8(ascii: "0") < 10
  }
}
