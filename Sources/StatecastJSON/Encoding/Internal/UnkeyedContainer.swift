/// Appends the elements of a JSON array to a ``ValueEncoder``.
struct UnkeyedContainer: UnkeyedEncodingContainer {
  let encoder: ValueEncoder

  var codingPath: [any CodingKey] { encoder.codingPath }
  var count: Int { encoder.elements.count }

  private var path: [any CodingKey] { encoder.codingPath + [JSONCodingKey(index: count)] }

  mutating func encodeNil() throws { encoder.elements.append(.null) }
  mutating func encode(_ value: Bool) throws { encoder.elements.append(.bool(value)) }
  mutating func encode(_ value: String) throws { encoder.elements.append(.string(value)) }
  mutating func encode(_ value: Double) throws {
    encoder.elements.append(try ValueEncoder.number(value) { path })
  }
  mutating func encode(_ value: Float) throws {
    encoder.elements.append(try ValueEncoder.number(value) { path })
  }
  mutating func encode(_ value: Int) throws { encoder.elements.append(.int(Int64(value))) }
  mutating func encode(_ value: Int8) throws { encoder.elements.append(.int(Int64(value))) }
  mutating func encode(_ value: Int16) throws { encoder.elements.append(.int(Int64(value))) }
  mutating func encode(_ value: Int32) throws { encoder.elements.append(.int(Int64(value))) }
  mutating func encode(_ value: Int64) throws { encoder.elements.append(.int(value)) }
  mutating func encode(_ value: UInt) throws {
    encoder.elements.append(try ValueEncoder.unsigned(UInt64(value), value) { path })
  }
  mutating func encode(_ value: UInt8) throws { encoder.elements.append(.int(Int64(value))) }
  mutating func encode(_ value: UInt16) throws { encoder.elements.append(.int(Int64(value))) }
  mutating func encode(_ value: UInt32) throws { encoder.elements.append(.int(Int64(value))) }
  mutating func encode(_ value: UInt64) throws {
    encoder.elements.append(try ValueEncoder.unsigned(value, value) { path })
  }

  mutating func encode<T: Encodable>(_ value: T) throws {
    let json = try encoder.encodeChild(value, at: .index(count))
    encoder.elements.append(json)
  }

  mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type)
    -> KeyedEncodingContainer<NestedKey>
  {
    KeyedEncodingContainer(KeyedContainer<NestedKey>(encoder: encoder.pendingElement(kind: .object)))
  }

  mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
    UnkeyedContainer(encoder: encoder.pendingElement(kind: .array))
  }

  mutating func superEncoder() -> any Encoder {
    encoder.pendingElement(kind: .empty)
  }
}
