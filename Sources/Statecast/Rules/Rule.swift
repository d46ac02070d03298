/// One rule of a rule set: what it requires of its input, and how it turns a matching
/// input into an output.
///
/// Rules replace one large `switch` over every case an app must handle (deep links,
/// notifications, commands) with small values, each testable alone and each easy to
/// read: its requirements are checked first, then its evaluation runs. The evaluation
/// may still decline (return `nil`), for instance when an id names nothing that
/// exists, and the rule set then moves on to the next rule.
///
/// ```swift
/// let album = Rule<DeepLink, Screen>(
///   "album",
///   requires: [.pathComponents(["music", "album", nil]), .integerPathComponent(at: 2)]
/// ) { link in
///   catalogue.album(id: link.integerPathComponent(at: 2)!).map { .album($0.id) }
/// }
/// album.evaluate(DeepLink("/music/album/9"))  // .album(9)
/// ```
public struct Rule<Input, Output>: Sendable {
  /// The rule's name: reported by ``RuleSet/match(_:)`` so that tests and logs can
  /// tell which rule decided.
  public let name: String
  /// What the input must satisfy before ``evaluate(_:)`` runs the evaluation.
  public let requirements: [Requirement<Input>]
  private let evaluation: @Sendable (Input) -> Output?

  /// Creates a rule.
  /// - Parameters:
  ///   - name: a short name for tests and logs.
  ///   - requirements: conditions checked in order before `evaluation` runs.
  ///   - evaluation: turns a matching input into an output, or declines with `nil`.
  public init(
    _ name: String,
    requires requirements: [Requirement<Input>] = [],
    evaluate evaluation: @escaping @Sendable (Input) -> Output?
  ) {
    self.name = name
    self.requirements = requirements
    self.evaluation = evaluation
  }

  /// The requirements that `input` does not meet (empty when the rule may evaluate).
  public func unmetRequirements(for input: Input) -> [Requirement<Input>] {
    requirements.filter { !$0.isSatisfied(by: input) }
  }

  /// Whether `input` meets every requirement of this rule.
  public func accepts(_ input: Input) -> Bool {
    requirements.allSatisfy { $0.isSatisfied(by: input) }
  }

  /// The rule's output for `input`: `nil` when a requirement is unmet or the
  /// evaluation declines.
  public func evaluate(_ input: Input) -> Output? {
    guard accepts(input) else { return nil }
    return evaluation(input)
  }
}
