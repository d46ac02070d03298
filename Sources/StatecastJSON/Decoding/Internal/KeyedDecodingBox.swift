/// Reads the members of a JSON object; unknown members are ignored.
struct KeyedDecodingBox<Key: CodingKey>: KeyedDecodingContainerProtocol {
  let object: JSONObject
  let decoder: ValueDecoder

  var codingPath: [any CodingKey] { decoder.codingPath }

  var allKeys: [Key] {
    // A plain loop: `compactMap`'s closure runs unspecialized here (`Key` is the app's).
    var keys: [Key] = []
    keys.reserveCapacity(object.count)
    for member in object.members {
      if let key = Key(stringValue: member.key) { keys.append(key) }
    }
    return keys
  }

  func contains(_ key: Key) -> Bool { object.index(forKey: key.stringValue) != nil }

  private func value(for key: Key) throws -> JSON {
    guard let value = object[key.stringValue] else {
      throw DecodingError.keyNotFound(
        key,
        .init(
          codingPath: codingPath,
          debugDescription: "No value associated with key \(key) (\"\(key.stringValue)\")."))
    }
    return value
  }

  private func path(_ key: Key) -> [any CodingKey] { decoder.path(key) }

  func decodeNil(forKey key: Key) throws -> Bool { try value(for: key).isNull }
  func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool {
    try ValueDecoder.bool(value(for: key), path(key))
  }
  func decode(_ type: String.Type, forKey key: Key) throws -> String {
    try ValueDecoder.string(value(for: key), path(key))
  }
  func decode(_ type: Double.Type, forKey key: Key) throws -> Double {
    try ValueDecoder.double(value(for: key), path(key))
  }
  func decode(_ type: Float.Type, forKey key: Key) throws -> Float {
    try ValueDecoder.float(value(for: key), path(key))
  }
  func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try integer(key) }
  func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try integer(key) }
  func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try integer(key) }
  func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try integer(key) }
  func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try integer(key) }
  func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try integer(key) }
  func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try integer(key) }
  func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try integer(key) }
  func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try integer(key) }
  func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try integer(key) }

  private func integer<T: FixedWidthInteger>(_ key: Key) throws -> T {
    try ValueDecoder.integer(T.self, value(for: key), path(key))
  }

  func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
    try ValueDecoder.decode(T.self, from: value(for: key), in: decoder, at: key, userInfo: decoder.userInfo)
  }

  func nestedContainer<NestedKey: CodingKey>(
    keyedBy type: NestedKey.Type, forKey key: Key
  ) throws -> KeyedDecodingContainer<NestedKey> {
    try child(key).container(keyedBy: NestedKey.self)
  }

  func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
    try child(key).unkeyedContainer()
  }

  func superDecoder() throws -> any Decoder {
    ValueDecoder(
      value: object["super"] ?? .null, parent: decoder, key: JSONCodingKey.super, userInfo: decoder.userInfo)
  }

  func superDecoder(forKey key: Key) throws -> any Decoder {
    ValueDecoder(
      value: object[key.stringValue] ?? .null, parent: decoder, key: key, userInfo: decoder.userInfo)
  }

  private func child(_ key: Key) throws -> ValueDecoder {
    ValueDecoder(value: try value(for: key), parent: decoder, key: key, userInfo: decoder.userInfo)
  }
}
