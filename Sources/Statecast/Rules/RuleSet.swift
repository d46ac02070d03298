/// Rules grouped by a key drawn from the input; the first rule that matches wins.
///
/// The key (for a deep link, its second path component: `artist`, `album`) narrows the
/// rules to the few that can apply, so an input is never tried against every rule.
/// Within a group, rules are tried in the order given, so a specific rule placed first
/// (an artist link *with* a song) takes precedence over a general one (any artist
/// link). Rules added with ``fallback`` are tried after the group, whatever the key,
/// which is where a catch-all rule ("not found") lives.
///
/// ```swift
/// let router = RuleSet<String, DeepLink, Screen>(
///   key: { $0.pathComponents.dropFirst().first ?? "" },
///   groups: ["artist": [artistWithSong, artist], "album": [album], "": [home]],
///   fallback: [notFound]
/// )
/// router.evaluate(DeepLink("/music/album/9"))  // the album rule's output
/// ```
public struct RuleSet<Key: Hashable & Sendable, Input, Output>: Sendable {
  private let key: @Sendable (Input) -> Key?
  /// The rules of each key, in the order they are tried.
  public private(set) var groups: [Key: [Rule<Input, Output>]]
  /// Rules tried after the input's group, for every input.
  public private(set) var fallback: [Rule<Input, Output>]

  /// Creates a rule set.
  /// - Parameters:
  ///   - key: picks the group of rules for an input; `nil` means only `fallback`
  ///     applies.
  ///   - groups: the rules of each key, in the order they are tried.
  ///   - fallback: rules tried, in order, when no rule of the input's group matched.
  public init(
    key: @escaping @Sendable (Input) -> Key?,
    groups: [Key: [Rule<Input, Output>]] = [:],
    fallback: [Rule<Input, Output>] = []
  ) {
    self.key = key
    self.groups = groups
    self.fallback = fallback
  }

  /// Appends `rule` to the group of `key`, after the rules already there.
  public mutating func add(_ rule: Rule<Input, Output>, for key: Key) {
    groups[key, default: []].append(rule)
  }

  /// Appends `rule` to the fallback rules.
  public mutating func addFallback(_ rule: Rule<Input, Output>) {
    fallback.append(rule)
  }

  /// The rules that `input` would be tried against, in order.
  public func candidates(for input: Input) -> [Rule<Input, Output>] {
    let grouped = key(input).flatMap { groups[$0] } ?? []
    return grouped + fallback
  }

  /// The first rule that matches `input`, with its output; `nil` when none does.
  public func match(_ input: Input) -> RuleMatch<Output>? {
    if let groupKey = key(input), let rules = groups[groupKey] {
      for rule in rules {
        if let output = rule.evaluate(input) { return RuleMatch(ruleName: rule.name, output: output) }
      }
    }
    for rule in fallback {
      if let output = rule.evaluate(input) { return RuleMatch(ruleName: rule.name, output: output) }
    }
    return nil
  }

  /// The output of the first rule that matches `input`; `nil` when none does.
  public func evaluate(_ input: Input) -> Output? {
    match(input)?.output
  }
}
