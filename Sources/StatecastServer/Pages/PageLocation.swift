import Foundation
import StatecastJSON

/// The address a page was requested at, as the browser runtime will see it: what topic
/// names (`counter/{query.room}`, `artist/{path.2}`) and `data-sc-params` placeholders
/// (`$location.pathname`, `$query.song`) read, resolved on the server the way
/// `Runtime/statecast/topic-name.js` and `action-template.js` resolve them.
struct PageLocation: Sendable, Equatable {
  /// The path, still percent-encoded (`/music/artist/42`).
  var pathname: String
  /// The query string with its `?`, or empty.
  var search: String
  /// The query's parameters, decoded, first value of each name first.
  var query: [(name: String, value: String)]
  /// What `{browser}` names: the browser's id as its cookie ``browserCookie`` carries it,
  /// `nil` without one (a first visit, a crawler, a cookie planted twice).
  var browser: String?

  /// The cookie in which the runtime mirrors the id it keeps in `localStorage` for
  /// `{browser}` (`Runtime/statecast/topic-name.js`), so that a page naming a topic with
  /// it can be rendered on its `GET`.
  static let browserCookie = "statecast_browser"

  static func == (lhs: PageLocation, rhs: PageLocation) -> Bool {
    lhs.pathname == rhs.pathname && lhs.search == rhs.search
  }

  /// - Parameter target: the request's path and query (`/counter.html?room=team`).
  init(target: String) {
    let parts = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
    pathname = parts.first.map(String.init).flatMap { $0.isEmpty ? nil : $0 } ?? "/"
    let rawQuery = parts.count > 1 ? String(parts[1]) : ""
    search = rawQuery.isEmpty ? "" : "?" + rawQuery
    query = rawQuery.split(separator: "&").compactMap { pair in
      let halves = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
      guard let name = halves.first.map({ Self.formDecode(String($0)) }) else { return nil }
      return (name, halves.count > 1 ? Self.formDecode(String(halves[1])) : "")
    }
  }

  /// The browser's id from the request's cookies: one ``browserCookie`` of 32 lowercase
  /// hex digits, as the runtime makes them; anything else names no browser.
  static func browserID(in request: UpgradeRequestInfo) -> String? {
    let values = request.cookies(named: browserCookie)
    guard values.count == 1, let id = values.first, id.utf8.count == 32,
      id.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) })
    else { return nil }
    return id
  }

  /// The first value of the query parameter `name`, as `URLSearchParams.get` gives it.
  func queryValue(_ name: String) -> String? {
    query.first { $0.name == name }?.value
  }

  private static func formDecode(_ text: String) -> String {
    let spaced = text.replacingOccurrences(of: "+", with: " ")
    return spaced.removingPercentEncoding ?? spaced
  }

  /// The topic a `data-sc-topic` value names at this address; `nil` when it takes
  /// `{browser}` and the request carried no browser id (the id the runtime keeps in the
  /// browser's storage is then unknown here): the runtime joins such a topic itself.
  func topicName(_ template: String) -> String? {
    guard template.contains("{") else { return template }
    if template.contains("{browser}") {
      guard let browser else { return nil }
      return resolved(template.replacingOccurrences(of: "{browser}", with: browser))
    }
    return resolved(template)
  }

  private func resolved(_ template: String) -> String {
    let parts = pathname.split(separator: "/", omittingEmptySubsequences: false).dropFirst().map(String.init)
    var kept: [String] = []
    for segment in template.split(separator: "/", omittingEmptySubsequences: false) {
      var missing = false
      var resolved = ""
      var rest = Substring(segment)
      while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
        resolved += rest[..<open]
        let inner = rest[rest.index(after: open)..<close]
        let halves = inner.split(separator: "|", maxSplits: 1, omittingEmptySubsequences: false)
        let name = halves[0]
        let fallback = halves.count > 1 ? String(halves[1]) : nil
        var value: String?
        if name.hasPrefix("query."), name.count > 6 {
          value = queryValue(String(name.dropFirst(6)))
        } else if name.hasPrefix("path."), let index = Int(name.dropFirst(5)) {
          value = index >= 1 && index <= parts.count ? parts[index - 1] : nil
          if let raw = value, !raw.isEmpty {
            value = raw.removingPercentEncoding
            if value == nil { missing = true }
          }
        } else {
          resolved += rest[open...close]
          rest = rest[rest.index(after: close)...]
          continue
        }
        if value == nil || value == "" {
          if let fallback, !fallback.isEmpty {
            value = fallback
          } else {
            missing = true
            value = ""
          }
        }
        resolved += value ?? ""
        rest = rest[rest.index(after: close)...]
      }
      resolved += rest
      if !missing { kept.append(resolved) }
    }
    return kept.joined(separator: "/")
  }

  /// `data-sc-params` with its location placeholders filled, as the runtime sends it;
  /// `nil` when the attribute is not a JSON object.
  func params(_ source: String) -> JSON? {
    guard let template = try? JSON(parsing: source), case .object = template else { return nil }
    return fill(template)
  }

  private func fill(_ value: JSON) -> JSON {
    switch value {
    case .string(let text) where text.hasPrefix("$$"): return .string(String(text.dropFirst()))
    case .string(let text) where text.hasPrefix("$"):
      switch text {
      case "$location.pathname": return .string(pathname)
      case "$location.search": return .string(search)
      case "$location.hash": return .string("")
      default:
        if text.hasPrefix("$query.") {
          return queryValue(String(text.dropFirst(7))).map(JSON.string) ?? .null
        }
        return .null
      }
    case .array(let array): return .array(array.map(fill))
    case .object(let object):
      return .object(JSONObject(uniqueKeysWithValues: object.map { ($0.key, fill($0.value)) }))
    default: return value
    }
  }
}
