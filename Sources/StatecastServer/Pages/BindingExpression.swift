import Foundation
import StatecastJSON
import StatecastTransport

/// The expression language of `data-sc-*` bindings, as the browser runtime reads it
/// (`Runtime/statecast/expression.js`): a path, optionally negated or compared with a
/// literal. The two sides are held to the same meaning by the conformance cases in
/// `Tests/Conformance/bindings.json`, run against both.
///
///     count   user.name   /a~1b   todos.length   !loading   filter == active   count >= 10
///     $item.title   $root.user   $index   $key
struct BindingExpression: Sendable {
  enum Base: Sendable { case scope, root, index, key }

  let base: Base
  let tokens: [String]
  let negations: Int
  let comparison: (operator: String, literal: JSON)?

  /// The values an expression reads: the scope's value (the state, or a list row's item),
  /// the topic's whole state, and the row's position and key.
  struct Scope {
    var value: JSON?
    var root: JSON?
    var index: Int?
    var key: String?
  }

  /// Parses `source`; `nil` for one the runtime refuses too (no path, an unknown `$name`).
  init?(_ source: String) {
    var text = source.trimmingCharacters(in: .whitespaces)
    var comparison: (String, JSON)?
    if let (left, op, right) = Self.splitComparison(text), !left.isEmpty, !left.allSatisfy({ $0 == "!" }) {
      text = left.trimmingCharacters(in: .whitespaces)
      comparison = (op, Self.literal(right.trimmingCharacters(in: .whitespaces)))
    }
    var negations = 0
    while text.hasPrefix("!") {
      negations += 1
      text.removeFirst()
    }
    text = text.trimmingCharacters(in: .whitespaces)
    guard !text.isEmpty else { return nil }
    var base = Base.scope
    var rest = text
    if text == "$index" || text == "$key" {
      base = text == "$index" ? .index : .key
      rest = ""
    } else if text == "$root" || text.hasPrefix("$root.") || text.hasPrefix("$root/") {
      base = .root
      rest = String(text.dropFirst(5))
    } else if text == "$item" || text.hasPrefix("$item.") || text.hasPrefix("$item/") {
      rest = String(text.dropFirst(5))
    } else if text.hasPrefix("$") {
      return nil
    }
    guard let tokens = Self.pathTokens(rest) else { return nil }
    self.base = base
    self.tokens = tokens
    self.negations = negations
    self.comparison = comparison
  }

  /// Parses `source` once: a page's bindings are the same at every render, so each is
  /// parsed at its first and read from here after (at most ``cacheLimit`` kept).
  static func cached(_ source: String) -> BindingExpression? {
    if let hit = cache.withLock({ $0[source] }) { return hit }
    let parsed = BindingExpression(source)
    cache.withLock { cache in
      if cache.count >= cacheLimit { cache.removeAll(keepingCapacity: true) }
      cache[source] = .some(parsed)
    }
    return parsed
  }

  private static let cacheLimit = 4_096
  /// A ``Locked`` (an `NSLock`, not `Mutex`, whose `withLock` ThreadSanitizer reports as
  /// racing on this toolchain).
  private static let cache = Locked([String: BindingExpression?]())

  /// The first comparison operator, as the runtime's `/^(.*?)\s*(==|!=|>=|<=|>|<)\s*(.*)$/`
  /// finds it: the leftmost position where one starts, the two-character ones first.
  private static func splitComparison(_ text: String) -> (String, String, String)? {
    let bytes = Array(text.utf8)
    for index in bytes.indices {
      let byte = bytes[index]
      let next = index + 1 < bytes.count ? bytes[index + 1] : 0
      var length = 0
      switch byte {
      case UInt8(ascii: "="), UInt8(ascii: "!"): length = next == UInt8(ascii: "=") ? 2 : 0
      case UInt8(ascii: ">"), UInt8(ascii: "<"): length = next == UInt8(ascii: "=") ? 2 : 1
      default: length = 0
      }
      guard length > 0 else { continue }
      return (
        String(decoding: bytes[..<index], as: UTF8.self),
        String(decoding: bytes[index..<index + length], as: UTF8.self),
        String(decoding: bytes[(index + length)...], as: UTF8.self)
      )
    }
    return nil
  }

  private static func literal(_ text: String) -> JSON {
    if text.count >= 2, text.hasPrefix("'"), text.hasSuffix("'") {
      return .string(String(text.dropFirst().dropLast()))
    }
    return (try? JSON(parsing: text)) ?? .string(text)
  }

  /// Reference tokens of a path: `a.b.0`, `.a.b`, `/a/b` (JSON Pointer), or empty.
  static func pathTokens(_ path: String) -> [String]? {
    if path.isEmpty || path == "." { return [] }
    if path.hasPrefix("/") {
      return path.dropFirst().split(separator: "/", omittingEmptySubsequences: false).map {
        $0.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
      }
    }
    let dotted = path.hasPrefix(".") ? path.dropFirst() : Substring(path)
    return dotted.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
  }

  /// The value the expression names, after negation and comparison; `nil` when missing.
  func evaluate(_ scope: Scope) -> JSON? {
    var value = resolve(scope)
    if let comparison { value = .bool(Self.compare(value, comparison.operator, comparison.literal)) }
    for _ in 0..<negations { value = .bool(!Self.truthy(value)) }
    return value
  }

  /// The value the path names, before negation and comparison.
  func resolve(_ scope: Scope) -> JSON? {
    switch base {
    case .index: return scope.index.map { .int(Int64($0)) }
    case .key: return scope.key.map { .string($0) }
    case .root: return Self.read(scope.root, tokens)
    case .scope: return Self.read(scope.value, tokens)
    }
  }

  private static func read(_ value: JSON?, _ tokens: [String]) -> JSON? {
    if tokens.last == "length", case .array(let array)? = lookup(value, tokens.dropLast()) {
      return .int(Int64(array.count))
    }
    return lookup(value, tokens[...])
  }

  /// RFC 6901 lookup; array indexes are decimal without leading zeros, as the runtime's.
  private static func lookup(_ value: JSON?, _ tokens: ArraySlice<String>) -> JSON? {
    var current = value
    for token in tokens {
      switch current {
      case .object(let object)?: current = object[token]
      case .array(let array)?:
        guard token == "0" || (token.first != "0" && !token.isEmpty && token.allSatisfy(\.isASCII)),
          let index = Int(token), array.indices.contains(index)
        else { return nil }
        current = array[index]
      default: return nil
      }
      if current == nil { return nil }
    }
    return current
  }

  private static func compare(_ value: JSON?, _ op: String, _ literal: JSON) -> Bool {
    switch op {
    case "==": return looseEqual(value, literal)
    case "!=": return !looseEqual(value, literal)
    default:
      guard let left = number(value), let right = number(literal) else { return false }
      switch op {
      case ">": return left > right
      case ">=": return left >= right
      case "<": return left < right
      default: return left <= right
      }
    }
  }

  private static func number(_ value: JSON?) -> Double? {
    switch value {
    case .int(let int)?: Double(int)
    case .double(let double)?: double
    default: nil
    }
  }

  /// `===` of the runtime: a missing value equals `null`; objects and arrays are never
  /// equal to a literal (they are different objects there).
  private static func looseEqual(_ value: JSON?, _ literal: JSON) -> Bool {
    switch (value ?? .null, literal) {
    case (.null, .null): true
    case (.bool(let a), .bool(let b)): a == b
    case (.string(let a), .string(let b)): a == b
    case (.int, _), (.double, _): number(value) != nil && number(value) == number(literal)
    default: false
    }
  }

  /// Binding truthiness: missing, `null`, `false`, `0`, `""` and `[]` are false;
  /// everything else (`{}` included) is true.
  static func truthy(_ value: JSON?) -> Bool {
    switch value {
    case nil, .null?: false
    case .bool(let bool)?: bool
    case .int(let int)?: int != 0
    case .double(let double)?: double != 0 && !double.isNaN
    case .string(let string)?: !string.isEmpty
    case .array(let array)?: !array.isEmpty
    case .object?: true
    }
  }

  /// The text shown for a value, as the runtime's `displayText`: strings as they are,
  /// numbers and booleans printed, missing and `null` as nothing, the rest as JSON.
  static func displayText(_ value: JSON?) -> String {
    switch value {
    case nil, .null?: ""
    case .string(let string)?: string
    case .bool(let bool)?: bool ? "true" : "false"
    case .int(let int)?: String(int)
    case .double(let double)?: javaScriptNumber(double)
    case let other?: String(decoding: other.serialized(), as: UTF8.self)
    }
  }

  /// A number as JavaScript's `String(n)` prints it for the values views hold.
  static func javaScriptNumber(_ double: Double) -> String {
    if double == double.rounded(), abs(double) < 1e21 { return String(Int64(double)) }
    return "\(double)"
  }

  /// `name: expression` pairs separated by `;` (class and attribute bindings); `nil`
  /// when one cannot be read, as the runtime skips the whole binding then.
  static func pairs(_ source: String) -> [(name: String, expression: BindingExpression)]? {
    var pairs: [(String, BindingExpression)] = []
    for part in source.split(separator: ";", omittingEmptySubsequences: false) {
      if part.trimmingCharacters(in: .whitespaces).isEmpty { continue }
      guard let colon = part.firstIndex(of: ":"), colon > part.startIndex,
        let expression = cached(String(part[part.index(after: colon)...]))
      else { return nil }
      pairs.append((part[..<colon].trimmingCharacters(in: .whitespaces), expression))
    }
    return pairs
  }
}
