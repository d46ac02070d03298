import Foundation

/// One rule a field's value must follow, as a value: the message when the value breaks
/// it, `nil` when it does not. Rules compose with ``and(_:)`` (the first broken rule
/// speaks) and are checked into ``FieldErrors`` by the reducer.
///
/// ```swift
/// let name = Validator<String>.required("Enter a name").and(.maxLength(40))
/// name.message(for: "")  // "Enter a name"
/// ```
public struct Validator<Value>: Sendable {
  private let rule: @Sendable (Value) -> String?

  /// A rule from a function that returns the message for a bad value.
  public init(_ rule: @escaping @Sendable (Value) -> String?) {
    self.rule = rule
  }

  /// The message for `value`, or `nil` when it follows the rule.
  public func message(for value: Value) -> String? { rule(value) }

  /// This rule, then `next` if this one holds.
  public func and(_ next: Validator<Value>) -> Validator<Value> {
    Validator { value in rule(value) ?? next.message(for: value) }
  }

  /// Every rule of `rules` in order; the first broken one speaks.
  public static func all(_ rules: [Validator<Value>]) -> Validator<Value> {
    Validator { value in
      for rule in rules {
        if let message = rule.message(for: value) { return message }
      }
      return nil
    }
  }

  /// A value that passes `predicate`, or `message`.
  public static func must(_ message: String, _ predicate: @escaping @Sendable (Value) -> Bool) -> Validator<
    Value
  > {
    Validator { predicate($0) ? nil : message }
  }
}

extension Validator where Value == String {
  /// Not empty once surrounding spaces are removed.
  public static func required(_ message: String = "This field is required") -> Validator<String> {
    must(message) { !$0.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty }
  }

  /// At most `count` characters.
  public static func maxLength(_ count: Int, _ message: String? = nil) -> Validator<String> {
    must(message ?? "At most \(count) characters") { $0.count <= count }
  }

  /// At least `count` characters.
  public static func minLength(_ count: Int, _ message: String? = nil) -> Validator<String> {
    must(message ?? "At least \(count) characters") { $0.count >= count }
  }

  /// An e-mail address: one `@`, something before it, a dotted domain after it, no spaces.
  public static func email(_ message: String = "Enter a valid email address") -> Validator<String> {
    must(message) { address in
      let parts = address.split(separator: "@", omittingEmptySubsequences: false)
      guard parts.count == 2, !parts[0].isEmpty, !address.contains(where: \.isWhitespace) else {
        return false
      }
      let labels = parts[1].split(separator: ".", omittingEmptySubsequences: false)
      return labels.count >= 2 && labels.allSatisfy { !$0.isEmpty }
    }
  }
}
