extension JSON: Codable {
  /// Writes the value through any encoder, so `JSON` can sit inside `Codable` types
  /// (a message with a `state: JSON` field). ``JSONValueEncoder`` takes it as it is.
  public func encode(to encoder: any Encoder) throws {
    switch self {
    case .null:
      var container = encoder.singleValueContainer()
      try container.encodeNil()
    case .bool(let value):
      var container = encoder.singleValueContainer()
      try container.encode(value)
    case .int(let value):
      var container = encoder.singleValueContainer()
      try container.encode(value)
    case .double(let value):
      var container = encoder.singleValueContainer()
      try container.encode(value)
    case .string(let value):
      var container = encoder.singleValueContainer()
      try container.encode(value)
    case .array(let elements):
      var container = encoder.unkeyedContainer()
      for element in elements { try container.encode(element) }
    case .object(let object):
      var container = encoder.container(keyedBy: JSONCodingKey.self)
      for (key, value) in object { try container.encode(value, forKey: JSONCodingKey(stringValue: key)) }
    }
  }

  /// Reads any JSON through any decoder; ``JSONValueDecoder`` hands it over as it is.
  public init(from decoder: any Decoder) throws {
    if let container = try? decoder.singleValueContainer() {
      if container.decodeNil() {
        self = .null
        return
      }
      if let value = try? container.decode(Bool.self) {
        self = .bool(value)
        return
      }
      if let value = try? container.decode(Int64.self) {
        self = .int(value)
        return
      }
      if let value = try? container.decode(Double.self) {
        self = .double(value)
        return
      }
      if let value = try? container.decode(String.self) {
        self = .string(value)
        return
      }
    }
    if var container = try? decoder.unkeyedContainer() {
      var elements: [JSON] = []
      while !container.isAtEnd { elements.append(try container.decode(JSON.self)) }
      self = .array(elements)
      return
    }
    let container = try decoder.container(keyedBy: JSONCodingKey.self)
    var object = JSONObject(minimumCapacity: container.allKeys.count)
    for key in container.allKeys {
      object[key.stringValue] = try container.decode(JSON.self, forKey: key)
    }
    self = .object(object)
  }
}
