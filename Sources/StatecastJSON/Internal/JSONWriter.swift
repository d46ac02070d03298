/// Writes JSON values as compact UTF-8 text into a byte array.
///
/// Kept apart from `JSON` so the patch writer can reuse the pieces (strings, pointers)
/// without building intermediate values.
enum JSONWriter {
  static func write(_ value: JSON, into buffer: inout [UInt8]) {
    switch value {
    case .null:
      appendASCII("null", into: &buffer)
    case .bool(let flag):
      appendASCII(flag ? "true" : "false", into: &buffer)
    case .int(let integer):
      writeInteger(integer, into: &buffer)
    case .double(let double):
      writeDouble(double, into: &buffer)
    case .string(let string):
      writeString(string, into: &buffer)
    case .array(let elements):
      buffer.append(UInt8(ascii: "["))
      for index in elements.indices {
        if index != 0 { buffer.append(UInt8(ascii: ",")) }
        write(elements[index], into: &buffer)
      }
      buffer.append(UInt8(ascii: "]"))
    case .object(let object):
      buffer.append(UInt8(ascii: "{"))
      var first = true
      for (key, member) in object.members {
        if !first { buffer.append(UInt8(ascii: ",")) }
        first = false
        writeString(key, into: &buffer)
        buffer.append(UInt8(ascii: ":"))
        write(member, into: &buffer)
      }
      buffer.append(UInt8(ascii: "}"))
    }
  }

  static func appendASCII(_ text: StaticString, into buffer: inout [UInt8]) {
    text.withUTF8Buffer { buffer.append(contentsOf: $0) }
  }

  static func writeInteger(_ value: Int64, into buffer: inout [UInt8]) {
    if value >= 0 && value < 10 {
      buffer.append(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value))
      return
    }
    if value < 0 { buffer.append(UInt8(ascii: "-")) }
    var magnitude = value.magnitude
    // 20 digits hold UInt64.max; fill from the end.
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
      var position = 20
      repeat {
        position -= 1
        let (quotient, remainder) = magnitude.quotientAndRemainder(dividingBy: 10)
        digits[position] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: remainder)
        magnitude = quotient
      } while magnitude != 0
      buffer.append(contentsOf: UnsafeBufferPointer(rebasing: digits[position..<20]))
    }
  }

  static func writeDouble(_ value: Double, into buffer: inout [UInt8]) {
    guard value.isFinite else {
      appendASCII("null", into: &buffer)
      return
    }
    if let integer = Int64(exactly: value), integer.magnitude < 1 << 53,
      !(integer == 0 && value.sign == .minus)
    {
      writeInteger(integer, into: &buffer)
      return
    }
    // Swift's description is the shortest text that round-trips ("0.1", "1e-07",
    // "1e+300"), all valid JSON numbers; only a trailing ".0" is dropped.
    var text = value.description
    if text.hasSuffix(".0") { text.removeLast(2) }
    buffer.append(contentsOf: text.utf8)
  }

  /// Writes a JSON Pointer's string form quoted. Tokens that need no escaping, nearly
  /// all of them (field names, indexes), are written as they are, without building the
  /// pointer's `description` first: a patch writes one or two pointers per operation.
  static func writePointer(_ pointer: JSONPointer, into buffer: inout [UInt8]) {
    let isPlain = pointer.tokens.allSatisfy { token in
      !token.utf8.contains { byte in
        byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte == UInt8(ascii: "~")
          || byte == UInt8(ascii: "/")
      }
    }
    guard isPlain else { return writeString(pointer.description, into: &buffer) }
    buffer.append(UInt8(ascii: "\""))
    for token in pointer.tokens {
      buffer.append(UInt8(ascii: "/"))
      buffer.append(contentsOf: token.utf8)
    }
    buffer.append(UInt8(ascii: "\""))
  }

  /// Writes `string` quoted, escaping `"`, `\` and U+0000...U+001F.
  static func writeString(_ string: String, into buffer: inout [UInt8]) {
    buffer.append(UInt8(ascii: "\""))
    var string = string
    string.withUTF8 { bytes in
      var runStart = 0
      var index = 0
      let count = bytes.count
      while index < count {
        let byte = bytes[index]
        if byte >= 0x20 && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "\\") {
          index += 1
          continue
        }
        if runStart < index {
          buffer.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
        }
        writeEscape(byte, into: &buffer)
        index += 1
        runStart = index
      }
      if runStart < count {
        buffer.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<count]))
      }
    }
    buffer.append(UInt8(ascii: "\""))
  }

  private static func writeEscape(_ byte: UInt8, into buffer: inout [UInt8]) {
    buffer.append(UInt8(ascii: "\\"))
    switch byte {
    case UInt8(ascii: "\""): buffer.append(UInt8(ascii: "\""))
    case UInt8(ascii: "\\"): buffer.append(UInt8(ascii: "\\"))
    case 0x08: buffer.append(UInt8(ascii: "b"))
    case 0x0C: buffer.append(UInt8(ascii: "f"))
    case 0x0A: buffer.append(UInt8(ascii: "n"))
    case 0x0D: buffer.append(UInt8(ascii: "r"))
    case 0x09: buffer.append(UInt8(ascii: "t"))
    default:
      let hex: StaticString = "0123456789abcdef"
      buffer.append(contentsOf: [UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0")])
      hex.withUTF8Buffer { digits in
        buffer.append(digits[Int(byte >> 4)])
        buffer.append(digits[Int(byte & 0x0F)])
      }
    }
  }
}
