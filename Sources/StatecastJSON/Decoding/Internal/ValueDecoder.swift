import Foundation

/// The `Decoder` behind ``JSONValueDecoder``: one per decoded value, reading the value
/// it was given.
final class ValueDecoder: Decoder {
  let value: JSON
  let codingPath: [any CodingKey]
  let userInfo: [CodingUserInfoKey: Any]

  init(value: JSON, codingPath: [any CodingKey], userInfo: [CodingUserInfoKey: Any]) {
    self.value = value
    self.codingPath = codingPath
    self.userInfo = userInfo
  }

  func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
    switch value {
    case .object(let object):
      return KeyedDecodingContainer(KeyedDecodingBox<Key>(object: object, decoder: self))
    case .null:
      throw DecodingError.valueNotFound(
        [String: Any].self,
        .init(
          codingPath: codingPath,
          debugDescription: "Cannot get keyed decoding container -- found null value instead"))
    default:
      throw Self.typeMismatch([String: Any].self, value, codingPath)
    }
  }

  func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
    switch value {
    case .array(let elements):
      return UnkeyedDecodingBox(elements: elements, decoder: self)
    case .null:
      throw DecodingError.valueNotFound(
        [Any].self,
        .init(
          codingPath: codingPath,
          debugDescription: "Cannot get unkeyed decoding container -- found null value instead"))
    default:
      throw Self.typeMismatch([Any].self, value, codingPath)
    }
  }

  func singleValueContainer() throws -> any SingleValueDecodingContainer {
    SingleValueDecodingBox(decoder: self)
  }

  // MARK: - Values

  /// Decodes a `T` from `value` found at `path`.
  static func decode<T: Decodable>(
    _ type: T.Type, from value: JSON, at path: [any CodingKey], userInfo: [CodingUserInfoKey: Any]
  ) throws -> T {
    if T.self == JSON.self { return reinterpret(value) }
    if T.self == String.self { return reinterpret(try string(value, path)) }
    if T.self == Int.self { return reinterpret(try integer(Int.self, value, path)) }
    if T.self == Double.self { return reinterpret(try double(value, path)) }
    if T.self == Bool.self { return reinterpret(try bool(value, path)) }
    if T.self == Int64.self { return reinterpret(try integer(Int64.self, value, path)) }
    if T.self == Date.self {
      return reinterpret(Date(timeIntervalSince1970: try double(value, path, as: Date.self) / 1000))
    }
    if T.self == URL.self {
      guard let url = URL(string: try string(value, path, as: URL.self)) else {
        throw DecodingError.dataCorrupted(.init(codingPath: path, debugDescription: "Invalid URL string."))
      }
      return reinterpret(url)
    }
    if T.self == Data.self {
      guard let data = Data(base64Encoded: try string(value, path, as: Data.self)) else {
        throw DecodingError.dataCorrupted(
          .init(codingPath: path, debugDescription: "Encountered Data is not valid Base64."))
      }
      return reinterpret(data)
    }
    if T.self == Decimal.self { return reinterpret(try decimal(value, path)) }
    return try T(from: ValueDecoder(value: value, codingPath: path, userInfo: userInfo))
  }

  static func string(_ value: JSON, _ path: [any CodingKey], as type: Any.Type = String.self) throws -> String
  {
    guard case .string(let string) = value else { throw mismatch(type, value, path) }
    return string
  }

  static func bool(_ value: JSON, _ path: [any CodingKey]) throws -> Bool {
    guard case .bool(let flag) = value else { throw mismatch(Bool.self, value, path) }
    return flag
  }

  static func double(_ value: JSON, _ path: [any CodingKey], as type: Any.Type = Double.self) throws -> Double
  {
    switch value {
    case .int(let integer): return Double(integer)
    case .double(let double): return double
    default: throw mismatch(type, value, path)
    }
  }

  static func float(_ value: JSON, _ path: [any CodingKey]) throws -> Float {
    let double = try double(value, path, as: Float.self)
    guard double.magnitude <= Double(Float.greatestFiniteMagnitude) else {
      throw DecodingError.dataCorrupted(
        .init(codingPath: path, debugDescription: "Number \(JSON.double(double)) does not fit in Float."))
    }
    return Float(double)
  }

  static func integer<T: FixedWidthInteger>(_ type: T.Type, _ value: JSON, _ path: [any CodingKey]) throws
    -> T
  {
    let result: T?
    switch value {
    case .int(let integer): result = T(exactly: integer)
    case .double(let double): result = T(exactly: double)
    default: throw mismatch(T.self, value, path)
    }
    guard let result else {
      throw DecodingError.dataCorrupted(
        .init(codingPath: path, debugDescription: "Number \(value) does not fit in \(T.self)."))
    }
    return result
  }

  static func decimal(_ value: JSON, _ path: [any CodingKey]) throws -> Decimal {
    switch value {
    case .int(let integer): return Decimal(integer)
    case .double(let double): return Decimal(string: "\(JSON.double(double))") ?? Decimal(double)
    default: throw mismatch(Decimal.self, value, path)
    }
  }

  /// `valueNotFound` for `null`, `typeMismatch` for anything else, as Foundation reports.
  static func mismatch(_ type: Any.Type, _ value: JSON, _ path: [any CodingKey]) -> DecodingError {
    if case .null = value {
      return DecodingError.valueNotFound(
        type,
        .init(
          codingPath: path, debugDescription: "Cannot get value of type \(type) -- found null value instead"))
    }
    return typeMismatch(type, value, path)
  }

  static func typeMismatch(_ type: Any.Type, _ value: JSON, _ path: [any CodingKey]) -> DecodingError {
    let found =
      switch value {
      case .null: "null"
      case .bool: "a boolean"
      case .int, .double: "a number"
      case .string: "a string"
      case .array: "an array"
      case .object: "a dictionary"
      }
    return DecodingError.typeMismatch(
      type,
      .init(codingPath: path, debugDescription: "Expected to decode \(type) but found \(found) instead."))
  }
}
