/// A JSON value (RFC 8259), the currency of the whole diff engine.
///
/// Views are encoded straight into `JSON` by ``JSONValueEncoder``, diffed into a
/// ``JSONPatch`` and serialized to UTF-8 with ``serialize(into:)``. Integers stay exact
/// (`Int64`) and are kept apart from doubles so that `id`s and counters never lose
/// precision; objects keep their members in the order they were encoded.
///
/// `==` is the equality of RFC 6902's `test` operation: numbers compare by value
/// (`1 == 1.0`), objects compare without regard to member order, arrays in order.
///
/// ```swift
/// let value: JSON = ["title": "Milk", "done": false, "tags": ["dairy"], "count": 2]
/// value["title"]        // .string("Milk")
/// value.serialized()    // UTF-8 bytes of {"title":"Milk","done":false,"tags":["dairy"],"count":2}
/// ```
public enum JSON: Sendable {
  case null
  case bool(Bool)
  /// An integer number, exact in the `Int64` range.
  case int(Int64)
  /// A finite floating-point number (JSON has no `NaN` or infinity).
  case double(Double)
  case string(String)
  case array([JSON])
  case object(JSONObject)
}

extension JSON {
  /// Whether this is `null`.
  public var isNull: Bool {
    if case .null = self { true } else { false }
  }

  /// The boolean, if this is one.
  public var boolValue: Bool? {
    if case .bool(let value) = self { value } else { nil }
  }

  /// The string, if this is one.
  public var stringValue: String? {
    if case .string(let value) = self { value } else { nil }
  }

  /// The number as an exact integer: an `.int`, or a `.double` with no fractional part
  /// that fits in `Int64`.
  public var int64Value: Int64? {
    switch self {
    case .int(let value): value
    case .double(let value): Int64(exactly: value)
    default: nil
    }
  }

  /// The number as a `Double`, whichever way it is stored.
  public var doubleValue: Double? {
    switch self {
    case .int(let value): Double(value)
    case .double(let value): value
    default: nil
    }
  }

  /// The elements, if this is an array.
  public var arrayValue: [JSON]? {
    if case .array(let value) = self { value } else { nil }
  }

  /// The members, if this is an object.
  public var objectValue: JSONObject? {
    if case .object(let value) = self { value } else { nil }
  }

  /// The member named `key`, if this is an object that has it.
  public subscript(key: String) -> JSON? {
    if case .object(let object) = self { object[key] } else { nil }
  }

  /// The element at `index`, if this is an array that long.
  public subscript(index: Int) -> JSON? {
    if case .array(let array) = self, array.indices.contains(index) { array[index] } else { nil }
  }

  /// The value that `pointer` refers to, or `nil` if there is none (RFC 6901).
  public subscript(pointer: JSONPointer) -> JSON? {
    var value = self
    for token in pointer.tokens {
      switch value {
      case .object(let object):
        guard let member = object[token] else { return nil }
        value = member
      case .array(let array):
        guard let index = JSONPointer.arrayIndex(token), index < array.count else { return nil }
        value = array[index]
      default:
        return nil
      }
    }
    return value
  }

  /// The name of this value's JSON type, for messages: `"null"`, `"boolean"`, `"number"`,
  /// `"string"`, `"array"` or `"object"`.
  public var typeName: String {
    switch self {
    case .null: "null"
    case .bool: "boolean"
    case .int, .double: "number"
    case .string: "string"
    case .array: "array"
    case .object: "object"
    }
  }
}

extension JSON: ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
  ExpressibleByStringLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
  public init(booleanLiteral value: Bool) { self = .bool(value) }
  public init(integerLiteral value: Int64) { self = .int(value) }
  public init(floatLiteral value: Double) { self = .double(value) }
  public init(stringLiteral value: String) { self = .string(value) }
  public init(arrayLiteral elements: JSON...) { self = .array(elements) }
  public init(dictionaryLiteral elements: (String, JSON)...) {
    self = .object(JSONObject(uniqueKeysWithValues: elements))
  }
}

extension JSON: CustomStringConvertible {
  /// The compact JSON text of this value.
  public var description: String {
    String(decoding: serialized(), as: UTF8.self)
  }
}
