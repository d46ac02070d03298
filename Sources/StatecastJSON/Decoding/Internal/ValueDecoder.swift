import Foundation

/// The `Decoder` behind ``JSONValueDecoder``: one per decoded value, reading the value
/// it was given.
///
/// A decoder knows its parent and its key there rather than its whole coding path: the
/// path is only read to report an error, and building it for every value decoded (an
/// array and a boxed key each time) cost more than decoding a small action.
final class ValueDecoder: Decoder {
  let value: JSON
  let parent: ValueDecoder?
  /// The key of this value in `parent` (`nil` at the top, or for a super decoder's own
  /// path as Foundation gives it).
  let key: (any CodingKey)?
  let userInfo: [CodingUserInfoKey: Any]

  init(value: JSON, parent: ValueDecoder?, key: (any CodingKey)?, userInfo: [CodingUserInfoKey: Any]) {
    self.value = value
    self.parent = parent
    self.key = key
    self.userInfo = userInfo
  }

  var codingPath: [any CodingKey] {
    var path: [any CodingKey] = []
    var decoder: ValueDecoder? = self
    while let current = decoder {
      if let key = current.key { path.append(key) }
      decoder = current.parent
    }
    return path.reversed()
  }

  /// The coding path of the value at `key` below this one.
  func path(_ key: any CodingKey) -> [any CodingKey] {
    codingPath + [key]
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

  /// Decodes a `T` from `value`, found at `key` of `parent` (`nil`, `nil`: the top).
  static func decode<T: Decodable>(
    _ type: T.Type, from value: JSON, in parent: ValueDecoder?, at key: (any CodingKey)?,
    userInfo: [CodingUserInfoKey: Any]
  ) throws -> T {
    func path() -> [any CodingKey] {
      guard let parent else { return key.map { [$0] } ?? [] }
      return key.map { parent.path($0) } ?? parent.codingPath
    }
    if T.self == JSON.self { return reinterpret(value) }
    if T.self == String.self { return reinterpret(try string(value, path())) }
    if T.self == Int.self { return reinterpret(try integer(Int.self, value, path())) }
    if T.self == Double.self { return reinterpret(try double(value, path())) }
    if T.self == Bool.self { return reinterpret(try bool(value, path())) }
    if T.self == Int64.self { return reinterpret(try integer(Int64.self, value, path())) }
    if T.self == Date.self {
      return reinterpret(Date(timeIntervalSince1970: try double(value, path(), as: Date.self) / 1000))
    }
    if T.self == URL.self {
      guard let url = URL(string: try string(value, path(), as: URL.self)) else {
        throw DecodingError.dataCorrupted(.init(codingPath: path(), debugDescription: "Invalid URL string."))
      }
      return reinterpret(url)
    }
    if T.self == Data.self {
      guard let data = Data(base64Encoded: try string(value, path(), as: Data.self)) else {
        throw DecodingError.dataCorrupted(
          .init(codingPath: path(), debugDescription: "Encountered Data is not valid Base64."))
      }
      return reinterpret(data)
    }
    if T.self == Decimal.self { return reinterpret(try decimal(value, path())) }
    return try T(from: ValueDecoder(value: value, parent: parent, key: key, userInfo: userInfo))
  }

  static func string(
    _ value: JSON, _ path: @autoclosure () -> [any CodingKey], as type: Any.Type = String.self
  ) throws -> String {
    guard case .string(let string) = value else { throw mismatch(type, value, path()) }
    return string
  }

  static func bool(_ value: JSON, _ path: @autoclosure () -> [any CodingKey]) throws -> Bool {
    guard case .bool(let flag) = value else { throw mismatch(Bool.self, value, path()) }
    return flag
  }

  static func double(
    _ value: JSON, _ path: @autoclosure () -> [any CodingKey], as type: Any.Type = Double.self
  ) throws -> Double {
    switch value {
    case .int(let integer): return Double(integer)
    case .double(let double): return double
    default: throw mismatch(type, value, path())
    }
  }

  static func float(_ value: JSON, _ path: @autoclosure () -> [any CodingKey]) throws -> Float {
    let double = try double(value, path(), as: Float.self)
    guard double.magnitude <= Double(Float.greatestFiniteMagnitude) else {
      throw DecodingError.dataCorrupted(
        .init(codingPath: path(), debugDescription: "Number \(JSON.double(double)) does not fit in Float."))
    }
    return Float(double)
  }

  static func integer<T: FixedWidthInteger>(
    _ type: T.Type, _ value: JSON, _ path: @autoclosure () -> [any CodingKey]
  ) throws
    -> T
  {
    let result: T?
    switch value {
    case .int(let integer): result = T(exactly: integer)
    case .double(let double): result = T(exactly: double)
    default: throw mismatch(T.self, value, path())
    }
    guard let result else {
      throw DecodingError.dataCorrupted(
        .init(codingPath: path(), debugDescription: "Number \(value) does not fit in \(T.self)."))
    }
    return result
  }

  static func decimal(_ value: JSON, _ path: @autoclosure () -> [any CodingKey]) throws -> Decimal {
    switch value {
    case .int(let integer): return Decimal(integer)
    case .double(let double): return Decimal(string: "\(JSON.double(double))") ?? Decimal(double)
    default: throw mismatch(Decimal.self, value, path())
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
