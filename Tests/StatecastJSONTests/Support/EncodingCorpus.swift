import Foundation

/// Types that exercise every corner of `Encodable`, for checking ``JSONValueEncoder``
/// against Foundation's `JSONEncoder`.
enum EncodingCorpus {
  struct Scalars: Codable, Equatable {
    var int = -42
    var int8: Int8 = -8
    var int16: Int16 = 1600
    var int32: Int32 = -32
    var int64: Int64 = .min
    var uint: UInt = 7
    var uint8: UInt8 = 255
    var uint16: UInt16 = 65535
    var uint32: UInt32 = .max
    var uint64: UInt64 = UInt64(Int64.max)
    var double = 0.1
    var wholeDouble = 3.0
    var tiny = Double.leastNonzeroMagnitude
    var huge = 1.7976931348623157e308
    var negativeZero = -0.0
    var float: Float = 0.1
    var bool = true
    var string = "quote\" backslash\\ slash/ newline\n tab\t nul\u{0} é 😀"
  }

  struct Optionals: Codable, Equatable {
    var present: Int? = 1
    var absent: Int? = nil
    var nested: Int?? = .some(nil)
    var array: [String?] = ["a", nil]
  }

  enum Action: Codable, Equatable {
    case add(title: String)
    case increment
    case pair(Int, String)
    case labeled(id: Int, String)
  }

  enum Color: String, Codable, CaseIterable { case red, green }

  struct Collections: Codable, Equatable {
    var rows: [Row] = [Row(id: 1, title: "Milk"), Row(id: 2, title: "Eggs", tags: ["x"])]
    var byName: [String: Int] = ["one": 1, "two": 2, "": 0]
    var byNumber: [Int: String] = [1: "a", -3: "b"]
    var byColor: [Color: Int] = [.red: 1]
    var set: Set<Int> = [3, 1, 2]
    var nested: [[Int]] = [[], [1], [2, 3]]
    var actions: [Action] = [.add(title: "Milk"), .increment, .pair(1, "x"), .labeled(id: 3, "y")]
  }

  struct Row: Codable, Equatable, Identifiable {
    var id: Int
    var title: String
    var tags: [String] = []
    var note: String? = nil
  }

  struct Special: Codable, Equatable {
    var url = URL(string: "https://example.org/a b?q=1&r=é")!
    var relative = URL(string: "path/x", relativeTo: URL(string: "https://example.org/base/"))!
    var decimal = Decimal(string: "3.14")!
    var wholeDecimal = Decimal(string: "-1200")!
    var data = Data([0, 1, 2, 250, 251, 252, 253])
  }

  class Animal: Codable {
    var name = "generic"
    init() {}
  }

  final class Dog: Animal {
    var breed = "collie"
    enum CodingKeys: String, CodingKey { case breed }
    override init() { super.init() }
    required init(from decoder: any Decoder) throws { fatalError("encoding only") }
    override func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(breed, forKey: .breed)
      try super.encode(to: container.superEncoder())
    }
  }

  /// Custom encoding with nested containers written out of order and a keyed super
  /// encoder that gets nothing.
  struct Custom: Encodable {
    enum Keys: String, CodingKey { case a, b, c, d, e }
    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: Keys.self)
      var nested = container.nestedContainer(keyedBy: Keys.self, forKey: .a)
      var list = container.nestedUnkeyedContainer(forKey: .b)
      try container.encode(1, forKey: .c)
      try nested.encode("late", forKey: .d)
      try list.encode(true)
      var inner = list.nestedContainer(keyedBy: Keys.self)
      try inner.encodeNil(forKey: .e)
      var innerList = list.nestedUnkeyedContainer()
      try innerList.encode(2.5)
      _ = container.superEncoder(forKey: .e)
    }
  }

  /// A single-value wrapper around another value.
  struct Wrapper<Value: Codable & Equatable>: Codable, Equatable {
    var value: Value
    init(_ value: Value) { self.value = value }
    init(from decoder: any Decoder) throws { value = try decoder.singleValueContainer().decode(Value.self) }
    func encode(to encoder: any Encoder) throws {
      var container = encoder.singleValueContainer()
      try container.encode(value)
    }
  }

  struct Empty: Codable, Equatable {}

  /// Every corpus value, named for failure messages.
  nonisolated(unsafe) static let values: [(String, any Encodable)] = [
    ("scalars", Scalars()),
    ("optionals", Optionals()),
    ("collections", Collections()),
    ("special", Special()),
    ("class with super encoder", Dog()),
    ("custom nested containers", Custom()),
    ("wrapper of struct", Wrapper(Row(id: 9, title: "w"))),
    ("wrapper of array", Wrapper([Wrapper(1), Wrapper(2)])),
    ("empty struct inside", ["e": Empty()]),
    ("top-level array", [Row(id: 1, title: "a")]),
    ("top-level string", "text"),
    ("top-level int", 12),
    ("top-level optional", Optional<Int>.none),
    ("enum", Action.labeled(id: 1, "z")),
    ("raw enum", Color.green),
  ]
}
