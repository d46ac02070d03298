import Foundation

extension ValueEncoder {
  /// The JSON of a value that is written as one JSON scalar (or is `JSON` already), or
  /// `nil` for anything that encodes itself into containers.
  ///
  /// Checks compare metatypes, which costs a pointer comparison each, so the generic
  /// path of arrays of `Int` or `String` stays cheap. Foundation's special cases are
  /// mirrored here: `URL`, `Data` (Base64), `Decimal` (a number); `Date` is written as
  /// milliseconds since 1970.
  static func scalar<T: Encodable>(_ value: T, at path: @autoclosure () -> [any CodingKey]) throws -> JSON? {
    if T.self == String.self { return .string(reinterpret(value)) }
    if T.self == Int.self { return .int(Int64(reinterpret(value) as Int)) }
    if T.self == Double.self { return try number(reinterpret(value) as Double, path) }
    if T.self == Bool.self { return .bool(reinterpret(value)) }
    if T.self == JSON.self { return (reinterpret(value) as JSON) }
    if T.self == Int64.self { return .int(reinterpret(value)) }
    if T.self == Int32.self { return .int(Int64(reinterpret(value) as Int32)) }
    if T.self == Int16.self { return .int(Int64(reinterpret(value) as Int16)) }
    if T.self == Int8.self { return .int(Int64(reinterpret(value) as Int8)) }
    if T.self == UInt.self { return try unsigned(UInt64(reinterpret(value) as UInt), value, path) }
    if T.self == UInt64.self { return try unsigned(reinterpret(value), value, path) }
    if T.self == UInt32.self { return .int(Int64(reinterpret(value) as UInt32)) }
    if T.self == UInt16.self { return .int(Int64(reinterpret(value) as UInt16)) }
    if T.self == UInt8.self { return .int(Int64(reinterpret(value) as UInt8)) }
    if T.self == Float.self { return try number(reinterpret(value) as Float, path) }
    if T.self == Date.self {
      return try number((reinterpret(value) as Date).timeIntervalSince1970 * 1000, path)
    }
    if T.self == URL.self { return .string((reinterpret(value) as URL).absoluteString) }
    if T.self == Data.self { return .string((reinterpret(value) as Data).base64EncodedString()) }
    if T.self == Decimal.self { return decimal(reinterpret(value)) }
    return nil
  }

  static func number(_ value: Double, _ path: () -> [any CodingKey]) throws -> JSON {
    guard value.isFinite else {
      throw EncodingError.invalidValue(
        value,
        .init(codingPath: path(), debugDescription: "Unable to encode Double.\(value) directly in JSON."))
    }
    return .double(value)
  }

  /// A `Float` as the double with the same shortest decimal text, so `Float(0.1)` is
  /// written `0.1` as `JSONEncoder` writes it, not `0.10000000149011612`.
  static func number(_ value: Float, _ path: () -> [any CodingKey]) throws -> JSON {
    guard value.isFinite else {
      throw EncodingError.invalidValue(
        value,
        .init(codingPath: path(), debugDescription: "Unable to encode Float.\(value) directly in JSON."))
    }
    return .double(Double(value.description) ?? Double(value))
  }

  static func unsigned(_ value: UInt64, _ original: Any, _ path: () -> [any CodingKey]) throws -> JSON {
    guard let exact = Int64(exactly: value) else {
      throw EncodingError.invalidValue(
        original,
        .init(
          codingPath: path(),
          debugDescription: "\(value) does not fit the Int64 range of exact JSON integers."))
    }
    return .int(exact)
  }

  static func decimal(_ value: Decimal) -> JSON {
    let text = value.description
    if let integer = Int64(text) { return .int(integer) }
    return .double(Double(text) ?? NSDecimalNumber(decimal: value).doubleValue)
  }
}

/// `value` as the type `U` that the caller has checked `T` to be.
@inline(__always)
func reinterpret<T, U>(_ value: T) -> U {
  unsafeBitCast(value, to: U.self)
}
