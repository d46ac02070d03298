/// Writes the members of a JSON object into a ``ValueEncoder``.
struct KeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
  let encoder: ValueEncoder

  var codingPath: [any CodingKey] { encoder.codingPath }

  private func path(_ key: Key) -> [any CodingKey] { encoder.codingPath + [key] }

  mutating func encodeNil(forKey key: Key) throws { encoder.setMember(key.stringValue, .null) }
  mutating func encode(_ value: Bool, forKey key: Key) throws {
    encoder.setMember(key.stringValue, .bool(value))
  }
  mutating func encode(_ value: String, forKey key: Key) throws {
    encoder.setMember(key.stringValue, .string(value))
  }
  mutating func encode(_ value: Double, forKey key: Key) throws {
    encoder.setMember(key.stringValue, try ValueEncoder.number(value) { path(key) })
  }
  mutating func encode(_ value: Float, forKey key: Key) throws {
    encoder.setMember(key.stringValue, try ValueEncoder.number(value) { path(key) })
  }
  mutating func encode(_ value: Int, forKey key: Key) throws {
    encoder.setMember(key.stringValue, .int(Int64(value)))
  }
  mutating func encode(_ value: Int8, forKey key: Key) throws {
    encoder.setMember(key.stringValue, .int(Int64(value)))
  }
  mutating func encode(_ value: Int16, forKey key: Key) throws {
    encoder.setMember(key.stringValue, .int(Int64(value)))
  }
  mutating func encode(_ value: Int32, forKey key: Key) throws {
    encoder.setMember(key.stringValue, .int(Int64(value)))
  }
  mutating func encode(_ value: Int64, forKey key: Key) throws {
    encoder.setMember(key.stringValue, .int(value))
  }
  mutating func encode(_ value: UInt, forKey key: Key) throws {
    encoder.setMember(key.stringValue, try ValueEncoder.unsigned(UInt64(value), value) { path(key) })
  }
  mutating func encode(_ value: UInt8, forKey key: Key) throws {
    encoder.setMember(key.stringValue, .int(Int64(value)))
  }
  mutating func encode(_ value: UInt16, forKey key: Key) throws {
    encoder.setMember(key.stringValue, .int(Int64(value)))
  }
  mutating func encode(_ value: UInt32, forKey key: Key) throws {
    encoder.setMember(key.stringValue, .int(Int64(value)))
  }
  mutating func encode(_ value: UInt64, forKey key: Key) throws {
    encoder.setMember(key.stringValue, try ValueEncoder.unsigned(value, value) { path(key) })
  }

  mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
    encoder.setMember(key.stringValue, try encoder.encodeChild(value, at: .key(key)))
  }

  mutating func nestedContainer<NestedKey: CodingKey>(
    keyedBy keyType: NestedKey.Type, forKey key: Key
  ) -> KeyedEncodingContainer<NestedKey> {
    KeyedEncodingContainer(KeyedContainer<NestedKey>(encoder: encoder.pendingMember(key, kind: .object)))
  }

  mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
    UnkeyedContainer(encoder: encoder.pendingMember(key, kind: .array))
  }

  mutating func superEncoder() -> any Encoder {
    encoder.pendingMember(JSONCodingKey.super, kind: .empty)
  }

  mutating func superEncoder(forKey key: Key) -> any Encoder {
    encoder.pendingMember(key, kind: .empty)
  }
}
