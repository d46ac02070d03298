/// A coding key for any string or array index: the keys of `JSON` objects when `JSON`
/// itself is coded, and the array positions in coding paths of errors.
struct JSONCodingKey: CodingKey, Sendable {
  let stringValue: String
  let intValue: Int?

  init(stringValue: String) {
    self.stringValue = stringValue
    self.intValue = nil
  }

  init(intValue: Int) {
    self.stringValue = "\(intValue)"
    self.intValue = intValue
  }

  /// The key of an array position, named as Foundation names it in coding paths.
  init(index: Int) {
    self.stringValue = "Index \(index)"
    self.intValue = index
  }

  /// The conventional key of a super encoder or decoder.
  static let `super` = JSONCodingKey(stringValue: "super")
}
