/// Reads the one value a decoder holds.
struct SingleValueDecodingBox: SingleValueDecodingContainer {
  let decoder: ValueDecoder

  var codingPath: [any CodingKey] { decoder.codingPath }
  private var value: JSON { decoder.value }

  func decodeNil() -> Bool { value.isNull }
  func decode(_ type: Bool.Type) throws -> Bool { try ValueDecoder.bool(value, codingPath) }
  func decode(_ type: String.Type) throws -> String { try ValueDecoder.string(value, codingPath) }
  func decode(_ type: Double.Type) throws -> Double { try ValueDecoder.double(value, codingPath) }
  func decode(_ type: Float.Type) throws -> Float { try ValueDecoder.float(value, codingPath) }
  func decode(_ type: Int.Type) throws -> Int { try ValueDecoder.integer(Int.self, value, codingPath) }
  func decode(_ type: Int8.Type) throws -> Int8 { try ValueDecoder.integer(Int8.self, value, codingPath) }
  func decode(_ type: Int16.Type) throws -> Int16 { try ValueDecoder.integer(Int16.self, value, codingPath) }
  func decode(_ type: Int32.Type) throws -> Int32 { try ValueDecoder.integer(Int32.self, value, codingPath) }
  func decode(_ type: Int64.Type) throws -> Int64 { try ValueDecoder.integer(Int64.self, value, codingPath) }
  func decode(_ type: UInt.Type) throws -> UInt { try ValueDecoder.integer(UInt.self, value, codingPath) }
  func decode(_ type: UInt8.Type) throws -> UInt8 { try ValueDecoder.integer(UInt8.self, value, codingPath) }
  func decode(_ type: UInt16.Type) throws -> UInt16 {
    try ValueDecoder.integer(UInt16.self, value, codingPath)
  }
  func decode(_ type: UInt32.Type) throws -> UInt32 {
    try ValueDecoder.integer(UInt32.self, value, codingPath)
  }
  func decode(_ type: UInt64.Type) throws -> UInt64 {
    try ValueDecoder.integer(UInt64.self, value, codingPath)
  }

  func decode<T: Decodable>(_ type: T.Type) throws -> T {
    // The value stays where this container's decoder is: same parent, same key.
    try ValueDecoder.decode(
      T.self, from: value, in: decoder.parent, at: decoder.key, userInfo: decoder.userInfo)
  }
}
