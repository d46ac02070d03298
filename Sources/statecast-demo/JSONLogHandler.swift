import Foundation
import Logging

/// Writes each log event to standard error as one JSON object on one line, for log
/// collectors that read structured lines (Loki, CloudWatch, Elasticsearch, `jq`):
///
/// ```json
/// {"time":"2026-03-01T12:00:00.250Z","level":"error","label":"statecast.topics","message":"opening a topic failed","metadata":{"error":"…","session":"3f2a9c1e","topic":"counter"}}
/// ```
///
/// Keys come in that order (metadata keys sorted); `metadata` holds the logger's, the provider's and the
/// call's metadata merged (the call's wins), with nested dictionaries and arrays as
/// JSON objects and arrays.
struct JSONLogHandler: LogHandler {
  let label: String
  var logLevel: Logger.Level = .info
  var metadata: Logger.Metadata = [:]
  var metadataProvider: Logger.MetadataProvider?

  init(label: String, metadataProvider: Logger.MetadataProvider? = nil) {
    self.label = label
    self.metadataProvider = metadataProvider
  }

  subscript(metadataKey key: String) -> Logger.Metadata.Value? {
    get { metadata[key] }
    set { metadata[key] = newValue }
  }

  func log(event: LogEvent) {
    var merged = metadata
    if let provided = metadataProvider?.get() { merged.merge(provided) { _, new in new } }
    if let explicit = event.metadata { merged.merge(explicit) { _, new in new } }
    var text = #"{"time":"#
    Self.append(string: Date().formatted(Self.time), to: &text)
    text += #","level":"#
    Self.append(string: event.level.rawValue, to: &text)
    text += #","label":"#
    Self.append(string: label, to: &text)
    text += #","message":"#
    Self.append(string: event.message.description, to: &text)
    text += #","metadata":"#
    Self.append(.dictionary(merged), to: &text)
    text += "}"
    // One write per line, so that lines from several threads never interleave.
    writeLine(text, to: STDERR_FILENO)
  }

  private static let time = Date.ISO8601FormatStyle(includingFractionalSeconds: true)

  private static func append(_ value: Logger.MetadataValue, to text: inout String) {
    switch value {
    case .string(let string): append(string: string, to: &text)
    case .stringConvertible(let convertible): append(string: convertible.description, to: &text)
    case .array(let values):
      text += "["
      for (index, value) in values.enumerated() {
        if index > 0 { text += "," }
        append(value, to: &text)
      }
      text += "]"
    case .dictionary(let dictionary):
      text += "{"
      for (index, key) in dictionary.keys.sorted().enumerated() {
        if index > 0 { text += "," }
        append(string: key, to: &text)
        text += ":"
        append(dictionary[key]!, to: &text)
      }
      text += "}"
    }
  }

  /// A JSON string literal (RFC 8259): quotes, backslashes and control characters escaped.
  private static func append(string: String, to text: inout String) {
    text += "\""
    for scalar in string.unicodeScalars {
      switch scalar {
      case "\"": text += "\\\""
      case "\\": text += "\\\\"
      case "\n": text += "\\n"
      case "\r": text += "\\r"
      case "\t": text += "\\t"
      case _ where scalar.value < 0x20:
        let hex = String(scalar.value, radix: 16)
        text += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      default: text.unicodeScalars.append(scalar)
      }
    }
    text += "\""
  }
}
