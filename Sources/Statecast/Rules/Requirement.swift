/// One named condition that a ``Rule`` needs its input to meet before it evaluates.
///
/// Requirements are values so that a rule can state, up front and readably, what it
/// needs ("three path components", "an integer id", "a `song` query item"), and so
/// that a test (or a debugging page) can ask which of them an input failed.
///
/// ```swift
/// let hasSong = Requirement<DeepLink>("song query item") { $0.queryItems["song"] != nil }
/// hasSong.isSatisfied(by: DeepLink("/music/artist/42?song=7"))  // true
/// ```
public struct Requirement<Input>: Sendable {
  /// A short description, shown when a rule explains why it did not match.
  public let name: String
  private let predicate: @Sendable (Input) -> Bool

  /// Creates a requirement from a name and a predicate over the input.
  public init(_ name: String, _ predicate: @escaping @Sendable (Input) -> Bool) {
    self.name = name
    self.predicate = predicate
  }

  /// Whether `input` meets this requirement.
  public func isSatisfied(by input: Input) -> Bool {
    predicate(input)
  }

  /// A requirement met only when both this one and `other` are.
  public func and(_ other: Requirement<Input>) -> Requirement<Input> {
    Requirement("\(name) and \(other.name)") { self.predicate($0) && other.predicate($0) }
  }

  /// A requirement met only when this one is not.
  public var negated: Requirement<Input> {
    Requirement("not \(name)") { !self.predicate($0) }
  }
}
