/// Sets the single value of a ``ValueEncoder`` (the last one written wins).
struct SingleValueContainer: SingleValueEncodingContainer {
  let encoder: ValueEncoder

  var codingPath: [any CodingKey] { encoder.codingPath }

  private func set(_ value: JSON) {
    encoder.kind = .single
    encoder.single = value
  }

  mutating func encodeNil() throws { set(.null) }
  mutating func encode(_ value: Bool) throws { set(.bool(value)) }
  mutating func encode(_ value: String) throws { set(.string(value)) }
  mutating func encode(_ value: Double) throws { set(try ValueEncoder.number(value) { codingPath }) }
  mutating func encode(_ value: Float) throws { set(try ValueEncoder.number(value) { codingPath }) }
  mutating func encode(_ value: Int) throws { set(.int(Int64(value))) }
  mutating func encode(_ value: Int8) throws { set(.int(Int64(value))) }
  mutating func encode(_ value: Int16) throws { set(.int(Int64(value))) }
  mutating func encode(_ value: Int32) throws { set(.int(Int64(value))) }
  mutating func encode(_ value: Int64) throws { set(.int(value)) }
  mutating func encode(_ value: UInt) throws {
    set(try ValueEncoder.unsigned(UInt64(value), value) { codingPath })
  }
  mutating func encode(_ value: UInt8) throws { set(.int(Int64(value))) }
  mutating func encode(_ value: UInt16) throws { set(.int(Int64(value))) }
  mutating func encode(_ value: UInt32) throws { set(.int(Int64(value))) }
  mutating func encode(_ value: UInt64) throws { set(try ValueEncoder.unsigned(value, value) { codingPath }) }

  mutating func encode<T: Encodable>(_ value: T) throws {
    set(try encoder.encodeChild(value, at: .wrapped))
  }
}
