/// The errors of a form, field by field: what the reducer decided is wrong with the
/// values it holds, and what only the server could know ("this name is taken").
///
/// A value like the rest of the state: the reducer recomputes it from the fields, merges
/// in the errors its effects reported, and a `TestStore` asserts it like any other state.
/// Encoded for the view as `{"field": "first message"}`, the shape the runtime's form
/// support shows next to each field (see docs/RUNTIME.md, "Forms").
///
/// ```swift
/// var errors = FieldErrors()
/// errors.check("name", state.name, .required("Enter a name"), .maxLength(40))
/// errors.check("email", state.email, .email())
/// errors.merge(state.serverErrors)
/// ```
public struct FieldErrors: Sendable, Hashable, Encodable {
  /// Messages by field name, in the order they were found.
  public private(set) var messages: [String: [String]] = [:]

  public init() {}

  /// Errors with one message per field.
  public init(_ messages: [String: String]) {
    for (field, message) in messages { add(message, to: field) }
  }

  /// Whether no field has an error.
  public var isEmpty: Bool { messages.isEmpty }

  /// The messages of `field` (empty when it is valid).
  public subscript(field: String) -> [String] { messages[field] ?? [] }

  /// Records that `field` has the problem `message`.
  public mutating func add(_ message: String, to field: String) {
    messages[field, default: []].append(message)
  }

  /// Checks `value` against `rules`, recording the message of the first rule it breaks.
  public mutating func check<Value>(_ field: String, _ value: Value, _ rules: Validator<Value>...) {
    if let message = Validator.all(rules).message(for: value) { add(message, to: field) }
  }

  /// Adds every message of `other` (the server's own errors, a sub-form's).
  public mutating func merge(_ other: FieldErrors) {
    for (field, messages) in other.messages {
      for message in messages { add(message, to: field) }
    }
  }

  /// These errors and `other`'s together.
  public func merging(_ other: FieldErrors) -> FieldErrors {
    var merged = self
    merged.merge(other)
    return merged
  }

  /// Drops every message of `field`.
  public mutating func clear(_ field: String) {
    messages[field] = nil
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: FieldKey.self)
    for field in messages.keys.sorted() {
      if let first = messages[field]?.first {
        try container.encode(first, forKey: FieldKey(stringValue: field))
      }
    }
  }

  private struct FieldKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
  }
}
