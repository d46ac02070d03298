/// Requirements that deep-link rules state about a ``DeepLink``.
///
/// ```swift
/// Rule<DeepLink, Screen>("artist", requires: [
///   .pathComponents(["music", "artist", nil]),
///   .integerPathComponent(at: 2),
/// ]) { ... }
/// ```
extension Requirement where Input == DeepLink {
  /// Exactly as many components as `pattern`, each equal to its non-`nil` entry
  /// (`nil` accepts any component).
  public static func pathComponents(_ pattern: [String?]) -> Self {
    let shown = pattern.map { $0 ?? "*" }.joined(separator: "/")
    return Requirement("path /\(shown)") { link in
      link.pathComponents.count == pattern.count
        && zip(link.pathComponents, pattern).allSatisfy { component, expected in
          expected.map { $0 == component } ?? true
        }
    }
  }

  /// The path starts with `prefix` (and may continue).
  public static func pathPrefix(_ prefix: [String]) -> Self {
    Requirement("path starting /\(prefix.joined(separator: "/"))") { link in
      link.pathComponents.starts(with: prefix)
    }
  }

  /// The component at `index` is a non-negative decimal integer.
  public static func integerPathComponent(at index: Int) -> Self {
    Requirement("integer path component \(index)") { $0.integerPathComponent(at: index) != nil }
  }

  /// The query has an item named `name` (with any value, even empty).
  public static func queryItem(_ name: String) -> Self {
    Requirement("query item \(name)") { $0.queryItems[name] != nil }
  }

  /// The query item `name` is a non-negative decimal integer.
  public static func integerQueryItem(_ name: String) -> Self {
    Requirement("integer query item \(name)") { $0.integerQueryItem(name) != nil }
  }

  /// The query has no items at all.
  public static var noQuery: Self {
    Requirement("no query") { $0.queryItems.isEmpty }
  }
}
