/// A link into an app, split into what rules look at: path components and query items.
///
/// Browsers hand the server paths such as `/music/artist/42?song=7`; rules should not
/// each re-parse strings. `DeepLink` parses once (percent-decoding components, ignoring
/// any scheme, host and fragment) and gives a canonical ``path`` back, so that every
/// screen has exactly one address to show in the address bar.
///
/// ```swift
/// let link = DeepLink("/music/artist/42?song=7")
/// link.pathComponents                  // ["music", "artist", "42"]
/// link.integerPathComponent(at: 2)     // 42
/// link.integerQueryItem("song")        // 7
/// ```
public struct DeepLink: Hashable, Sendable, CustomStringConvertible {
  /// The non-empty, percent-decoded components of the path.
  public var pathComponents: [String]
  /// The percent-decoded query items; when a name repeats, the first value is kept.
  public var queryItems: [String: String]

  /// Creates a link from its parts.
  public init(pathComponents: [String], queryItems: [String: String] = [:]) {
    self.pathComponents = pathComponents
    self.queryItems = queryItems
  }

  /// Parses a path with an optional query (`/a/b?x=1`), or a whole URL, whose scheme
  /// and host are ignored. Never fails: anything unparseable becomes components that
  /// no rule expects.
  public init(_ string: some StringProtocol) {
    var rest = Substring(string)
    if let hash = rest.firstIndex(of: "#") { rest = rest[..<hash] }
    if let scheme = rest.firstRange(of: "://") {
      let afterScheme = rest[scheme.upperBound...]
      rest = afterScheme.firstIndex(where: { $0 == "/" || $0 == "?" }).map { afterScheme[$0...] } ?? ""
    }
    var query: Substring = ""
    if let mark = rest.firstIndex(of: "?") {
      query = rest[rest.index(after: mark)...]
      rest = rest[..<mark]
    }
    pathComponents = rest.split(separator: "/").map { PercentEncoding.decode($0, plusIsSpace: false) }
    var items: [String: String] = [:]
    for pair in query.split(separator: "&") {
      let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
      let name = PercentEncoding.decode(parts[0], plusIsSpace: true)
      guard !name.isEmpty, items[name] == nil else { continue }
      items[name] = parts.count > 1 ? PercentEncoding.decode(parts[1], plusIsSpace: true) : ""
    }
    queryItems = items
  }

  /// The canonical form: `/` joined, percent-encoded components, then the query items
  /// sorted by name (`/music/artist/42?song=7`).
  public var path: String {
    var result = "/" + pathComponents.map { PercentEncoding.encode($0) }.joined(separator: "/")
    if !queryItems.isEmpty {
      result += "?"
      result += queryItems.sorted { $0.key < $1.key }
        .map { PercentEncoding.encode($0.key) + "=" + PercentEncoding.encode($0.value) }
        .joined(separator: "&")
    }
    return result
  }

  /// The path, as a link would carry it.
  public var description: String { path }

  /// The component at `index` read as a non-negative decimal integer, or `nil`.
  public func integerPathComponent(at index: Int) -> Int? {
    guard pathComponents.indices.contains(index) else { return nil }
    return Self.nonNegativeInteger(pathComponents[index])
  }

  /// The query item `name` read as a non-negative decimal integer, or `nil`.
  public func integerQueryItem(_ name: String) -> Int? {
    queryItems[name].flatMap(Self.nonNegativeInteger)
  }

  private static func nonNegativeInteger(_ text: String) -> Int? {
    guard !text.isEmpty, text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else {
      return nil
    }
    return Int(text)
  }
}
