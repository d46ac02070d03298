/// Numbers: integers accumulated exactly, doubles on a fast exact path when the digits
/// allow it.
extension JSONParser {
  /// Exact powers of ten for the fast path (all exactly representable as doubles).
  static let powersOfTen: [Double] = (0...22).map { exponent in
    var value = 1.0
    for _ in 0..<exponent { value *= 10 }
    return value
  }

  mutating func parseNumber() throws(JSONParsingError) -> JSON {
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

  func isDigit(_ byte: UInt8) -> Bool {
    byte &- UInt8(ascii: "0") < 10
  }
}
