/// The outcome of a ``RuleSet``: which rule matched and what it produced.
///
/// Returned by ``RuleSet/match(_:)`` so that a test can assert not only the output but
/// also that the intended rule was the one that decided.
public struct RuleMatch<Output> {
  /// The ``Rule/name`` of the rule that matched.
  public let ruleName: String
  /// What that rule produced.
  public let output: Output

  /// Creates a match.
  public init(ruleName: String, output: Output) {
    self.ruleName = ruleName
    self.output = output
  }
}

extension RuleMatch: Equatable where Output: Equatable {}
extension RuleMatch: Sendable where Output: Sendable {}
