import Foundation

/// Escaping of what is rendered from state, for the context it lands in.
///
/// State holds what users typed, so every value is text and never markup: in text
/// content `&` and `<` (and `>`) are escaped; in a double-quoted attribute value `&`
/// and `"` too. URLs are refused, not escaped, when their scheme can run script
/// (``isSafeAttributeValue(_:_:)``), the same rule as the browser runtime's.
enum HTMLEscaping {
  /// Text content of an element.
  static func text(_ value: String) -> String {
    guard value.contains(where: { $0 == "&" || $0 == "<" || $0 == ">" }) else { return value }
    var escaped = ""
    escaped.reserveCapacity(value.utf8.count + 16)
    for character in value {
      switch character {
      case "&": escaped += "&amp;"
      case "<": escaped += "&lt;"
      case ">": escaped += "&gt;"
      default: escaped.append(character)
      }
    }
    return escaped
  }

  /// A double-quoted attribute value.
  static func attribute(_ value: String) -> String {
    guard value.contains(where: { $0 == "&" || $0 == "\"" || $0 == "<" || $0 == ">" }) else { return value }
    var escaped = ""
    escaped.reserveCapacity(value.utf8.count + 16)
    for character in value {
      switch character {
      case "&": escaped += "&amp;"
      case "\"": escaped += "&quot;"
      case "<": escaped += "&lt;"
      case ">": escaped += "&gt;"
      default: escaped.append(character)
      }
    }
    return escaped
  }

  /// JSON inside a `<script type="application/json">`: `<` becomes `\u003c`, so no
  /// string in the state can close the script element or open a comment.
  static func scriptJSON(_ json: String) -> String {
    json.replacingOccurrences(of: "<", with: "\\u003c")
  }

  /// URL attributes: the ones whose value a browser may load or navigate to.
  static let urlAttributes: Set<String> = [
    "href", "src", "action", "formaction", "xlink:href", "poster", "cite", "data", "background", "ping",
  ]

  /// Whether a binding may write the attribute at all: never an event handler, never
  /// `srcdoc` (both would run what the state holds).
  static func isWritableAttribute(_ name: String) -> Bool {
    !name.hasPrefix("on") && name != "srcdoc"
  }

  /// Whether `value` may be written to the attribute `name`: a URL attribute refuses
  /// `javascript:` and `vbscript:`, however spelled with spaces or control characters
  /// (browsers drop those inside a scheme).
  static func isSafeAttributeValue(_ name: String, _ value: String) -> Bool {
    guard urlAttributes.contains(name) else { return true }
    let scheme = String(String.UnicodeScalarView(value.unicodeScalars.filter { $0.value > 0x20 }))
      .lowercased()
    return !scheme.hasPrefix("javascript:") && !scheme.hasPrefix("vbscript:")
  }
}
