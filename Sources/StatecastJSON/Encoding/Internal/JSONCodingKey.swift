/// A coding key for any string or array index: the keys of `JSON` objects when `JSON`
/// itself is coded, and the array positions in coding paths of errors.
///
/// An array position is named only when asked (`Index 3`, as Foundation names it): the
/// coders keep a key for every element they pass through, and read its name only to
/// report an error. Small enough (24 bytes) to sit inside an `any CodingKey` without a box.
struct JSONCodingKey: CodingKey, Sendable {
  /// The key's text; `nil` for an array position.
  private let name: String?
  /// The integer value, or `Int.min` for a key that has none.
  private let number: Int

  var stringValue: String { name ?? "Index \(number)" }
  var intValue: Int? { number == .min ? nil : number }

  init(stringValue: String) {
    name = stringValue
    number = .min
  }

  init(intValue: Int) {
    name = "\(intValue)"
    number = intValue
  }

  /// The key of an array position.
  init(index: Int) {
    name = nil
    number = index
  }

  /// The conventional key of a super encoder or decoder.
  static let `super` = JSONCodingKey(stringValue: "super")
}
