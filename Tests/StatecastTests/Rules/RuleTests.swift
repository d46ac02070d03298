import Statecast
import Testing

@Suite("Rule")
struct RuleTests {
  let evenDouble = Rule<Int, Int>(
    "double an even number", requires: [Requirement("even") { $0.isMultiple(of: 2) }]
  ) {
    $0 * 2
  }

  @Test func evaluatesWhenEveryRequirementIsMet() {
    #expect(evenDouble.evaluate(4) == 8)
    #expect(evenDouble.accepts(4))
    #expect(evenDouble.unmetRequirements(for: 4).isEmpty)
  }

  @Test func declinesAndNamesTheUnmetRequirement() {
    #expect(evenDouble.evaluate(3) == nil)
    #expect(!evenDouble.accepts(3))
    #expect(evenDouble.unmetRequirements(for: 3).map(\.name) == ["even"])
  }

  @Test func doesNotRunTheEvaluationWhenARequirementFails() {
    let rule = Rule<Int, Int>("never", requires: [Requirement("impossible") { _ in false }]) { _ in
      Issue.record("the evaluation ran although a requirement failed")
      return 0
    }
    #expect(rule.evaluate(1) == nil)
  }

  @Test func evaluationMayDeclineAfterRequirementsPass() {
    let known: Set<Int> = [1, 2]
    let lookup = Rule<Int, String>("known id") { known.contains($0) ? "item \($0)" : nil }
    #expect(lookup.evaluate(2) == "item 2")
    #expect(lookup.evaluate(3) == nil)
  }

  @Test func requirementsCombine() {
    let positive = Requirement<Int>("positive") { $0 > 0 }
    let even = Requirement<Int>("even") { $0.isMultiple(of: 2) }
    let both = positive.and(even)
    #expect(both.name == "positive and even")
    #expect(both.isSatisfied(by: 4))
    #expect(!both.isSatisfied(by: -4))
    #expect(!both.isSatisfied(by: 3))
    #expect(positive.negated.isSatisfied(by: -1))
    #expect(!positive.negated.isSatisfied(by: 1))
    #expect(positive.negated.name == "not positive")
  }
}
