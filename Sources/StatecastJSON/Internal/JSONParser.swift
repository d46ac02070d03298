/// A strict recursive-descent RFC 8259 parser over a buffer of UTF-8 bytes.
///
/// One pass, no intermediate tokens: strings without escapes are sliced straight into
/// `String`s, integers are accumulated exactly, and doubles take a fast exact path when
/// the digits allow it (falling back to the standard library's correctly rounded parse).
/// Values and containers here; strings in `JSONParser+Strings.swift`, numbers in
/// `JSONParser+Numbers.swift`.
struct JSONParser {
  let bytes: UnsafeBufferPointer<UInt8>
  var position = 0
  let maxDepth: Int
  var depth = 0
  /// Reused to decode strings that contain escapes.
  var scratch: [UInt8] = []

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

  mutating func parseValue() throws(JSONParsingError) -> JSON {
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

  mutating func expectLiteral(_ literal: StaticString) throws(JSONParsingError) {
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

  mutating func enterContainer() throws(JSONParsingError) {
    depth += 1
    if depth > maxDepth { throw JSONParsingError(.tooDeep(limit: maxDepth), at: position) }
  }

  mutating func parseArray() throws(JSONParsingError) -> JSON {
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

  mutating func parseObject() throws(JSONParsingError) -> JSON {
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

  func peek() throws(JSONParsingError) -> UInt8 {
    guard position < bytes.count else { throw JSONParsingError(.unexpectedEndOfInput, at: position) }
    return bytes[position]
  }

  mutating func skipWhitespace() {
    while position < bytes.count {
      switch bytes[position] {
      case UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\t"): position += 1
      default: return
      }
    }
  }
}
