import Statecast
import Testing

@Suite("RuleSet")
struct RuleSetTests {
  /// Commands such as "say hello" or "add 2 3", keyed by their first word.
  let rules = RuleSet<String, [String], String>(
    key: { $0.first },
    groups: [
      "say": [
        Rule(
          "say hello loudly",
          requires: [Requirement("two words") { $0.count == 2 }, Requirement("hello") { $0[1] == "hello" }]
        ) { _ in "HELLO" },
        Rule("say anything", requires: [Requirement("two words") { $0.count == 2 }]) { $0[1] },
      ],
      "add": [
        Rule("add two integers", requires: [Requirement("three words") { $0.count == 3 }]) { words in
          guard let a = Int(words[1]), let b = Int(words[2]) else { return nil }
          return String(a + b)
        }
      ],
    ],
    fallback: [Rule("unknown") { "unknown: \($0.joined(separator: " "))" }]
  )

  @Test func theFirstMatchingRuleOfTheGroupWins() {
    #expect(rules.match(["say", "hello"]) == RuleMatch(ruleName: "say hello loudly", output: "HELLO"))
    #expect(rules.match(["say", "bye"]) == RuleMatch(ruleName: "say anything", output: "bye"))
  }

  @Test func aDecliningEvaluationFallsThroughToTheFallback() {
    #expect(rules.match(["add", "2", "3"]) == RuleMatch(ruleName: "add two integers", output: "5"))
    #expect(rules.match(["add", "two", "3"]) == RuleMatch(ruleName: "unknown", output: "unknown: add two 3"))
  }

  @Test func anUnknownKeyOrNoKeyUsesOnlyTheFallback() {
    #expect(rules.evaluate(["jump"]) == "unknown: jump")
    #expect(rules.evaluate([]) == "unknown: ")
    #expect(rules.candidates(for: ["jump"]).map(\.name) == ["unknown"])
    #expect(
      rules.candidates(for: ["say", "x"]).map(\.name) == ["say hello loudly", "say anything", "unknown"])
  }

  @Test func rulesOfOtherGroupsAreNeverTried() {
    var set = RuleSet<Int, Int, String>(key: { $0 % 2 })
    set.add(Rule("even") { _ in "even" }, for: 0)
    set.add(
      Rule("odd must not be tried for even input") { _ in
        Issue.record("a rule of another group was tried")
        return nil
      }, for: 1)
    #expect(set.evaluate(4) == "even")
  }

  @Test func noMatchWithoutAFallbackIsNil() {
    var set = RuleSet<String, String, Int>(key: { $0 })
    #expect(set.match("a") == nil)
    set.add(Rule("a is one") { _ in 1 }, for: "a")
    set.add(Rule("a is two, never reached") { _ in 2 }, for: "a")
    set.addFallback(Rule("anything else is zero") { _ in 0 })
    #expect(set.match("a") == RuleMatch(ruleName: "a is one", output: 1))
    #expect(set.match("b") == RuleMatch(ruleName: "anything else is zero", output: 0))
    #expect(set.groups["a"]?.count == 2)
    #expect(set.fallback.count == 1)
  }
}
