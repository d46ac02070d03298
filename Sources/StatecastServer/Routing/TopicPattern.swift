/// A route's topic pattern, such as `counter` or `todos/:room`.
///
/// Topics are slash-separated names. A segment that starts with `:` matches any one
/// non-empty segment and captures it under that name, so `todos/:room` matches
/// `todos/team-42` with `["room": "team-42"]`. Matching is exact otherwise: the same
/// number of segments, literal segments equal byte for byte.
struct TopicPattern: Sendable, CustomStringConvertible {
  private enum Segment: Sendable {
    case literal(Substring)
    case parameter(String)
  }

  let description: String
  private let segments: [Segment]

  init(_ pattern: String) {
    precondition(!pattern.isEmpty, "a topic pattern cannot be empty")
    description = pattern
    segments = pattern.split(separator: "/", omittingEmptySubsequences: false).map { segment in
      segment.first == ":" ? .parameter(String(segment.dropFirst())) : .literal(segment)
    }
  }

  /// The captured parameters when `topic` matches this pattern, otherwise `nil`.
  func match(_ topic: String) -> [String: String]? {
    let parts = topic.split(separator: "/", omittingEmptySubsequences: false)
    guard parts.count == segments.count else { return nil }
    var parameters: [String: String] = [:]
    for (segment, part) in zip(segments, parts) {
      switch segment {
      case .literal(let literal):
        guard literal == part else { return nil }
      case .parameter(let name):
        guard !part.isEmpty else { return nil }
        parameters[name] = String(part)
      }
    }
    return parameters
  }
}
