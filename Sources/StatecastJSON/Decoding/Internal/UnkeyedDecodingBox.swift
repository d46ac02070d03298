/// Reads the elements of a JSON array in order.
struct UnkeyedDecodingBox: UnkeyedDecodingContainer {
  let elements: [JSON]
  let decoder: ValueDecoder
  private(set) var currentIndex = 0

  init(elements: [JSON], decoder: ValueDecoder) {
    self.elements = elements
    self.decoder = decoder
  }

  var codingPath: [any CodingKey] { decoder.codingPath }
  var count: Int? { elements.count }
  var isAtEnd: Bool { currentIndex >= elements.count }

  private var key: JSONCodingKey { JSONCodingKey(index: currentIndex) }
  private var path: [any CodingKey] { decoder.path(key) }

  /// The next element, without advancing.
  private func peek(_ type: Any.Type) throws -> JSON {
    guard !isAtEnd else {
      throw DecodingError.valueNotFound(
        type, .init(codingPath: path, debugDescription: "Unkeyed container is at end."))
    }
    return elements[currentIndex]
  }

  /// Reads the next element with `read`, which is given the element and its coding path
  /// (built only if `read` asks for it, to report an error).
  private mutating func next<T>(_ type: T.Type, _ read: (JSON, () -> [any CodingKey]) throws -> T) throws -> T
  {
    let value = try read(try peek(T.self), { path })
    currentIndex += 1
    return value
  }

  mutating func decodeNil() throws -> Bool {
    guard try peek(Any?.self).isNull else { return false }
    currentIndex += 1
    return true
  }

  mutating func decode(_ type: Bool.Type) throws -> Bool {
    try next(Bool.self) { try ValueDecoder.bool($0, $1()) }
  }
  mutating func decode(_ type: String.Type) throws -> String {
    try next(String.self) { try ValueDecoder.string($0, $1()) }
  }
  mutating func decode(_ type: Double.Type) throws -> Double {
    try next(Double.self) { try ValueDecoder.double($0, $1()) }
  }
  mutating func decode(_ type: Float.Type) throws -> Float {
    try next(Float.self) { try ValueDecoder.float($0, $1()) }
  }
  mutating func decode(_ type: Int.Type) throws -> Int { try integer() }
  mutating func decode(_ type: Int8.Type) throws -> Int8 { try integer() }
  mutating func decode(_ type: Int16.Type) throws -> Int16 { try integer() }
  mutating func decode(_ type: Int32.Type) throws -> Int32 { try integer() }
  mutating func decode(_ type: Int64.Type) throws -> Int64 { try integer() }
  mutating func decode(_ type: UInt.Type) throws -> UInt { try integer() }
  mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try integer() }
  mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try integer() }
  mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try integer() }
  mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try integer() }

  private mutating func integer<T: FixedWidthInteger>() throws -> T {
    try next(T.self) { try ValueDecoder.integer(T.self, $0, $1()) }
  }

  mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
    let (decoder, key) = (decoder, key)
    return try next(T.self) { value, _ in
      try ValueDecoder.decode(T.self, from: value, in: decoder, at: key, userInfo: decoder.userInfo)
    }
  }

  mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws
    -> KeyedDecodingContainer<NestedKey>
  {
    let (decoder, key) = (decoder, key)
    return try next(KeyedDecodingContainer<NestedKey>.self) { value, _ in
      try ValueDecoder(value: value, parent: decoder, key: key, userInfo: decoder.userInfo)
        .container(keyedBy: NestedKey.self)
    }
  }

  mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
    let (decoder, key) = (decoder, key)
    return try next((any UnkeyedDecodingContainer).self) { value, _ in
      try ValueDecoder(value: value, parent: decoder, key: key, userInfo: decoder.userInfo).unkeyedContainer()
    }
  }

  mutating func superDecoder() throws -> any Decoder {
    let (decoder, key) = (decoder, key)
    return try next((any Decoder).self) { value, _ in
      ValueDecoder(value: value, parent: decoder, key: key, userInfo: decoder.userInfo)
    }
  }
}
