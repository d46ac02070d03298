import Foundation
import StatecastJSON
import Testing

@testable import StatecastServer

/// The binding conformance cases (`Tests/Conformance/bindings.json`) against the
/// server's renderer: each case's markup rendered with its topics' states must be the
/// expected DOM. `Tests/JS/conformance.test.js` runs the same cases against the browser
/// runtime, so the first paint and the live page mean the same.
@Suite struct BindingConformanceTests {
  struct Case: CustomTestStringConvertible, Sendable {
    var name: String
    var markup: String
    var href: String?
    var topics: [String: JSON]
    var expected: String
    var testDescription: String { name }
  }

  static let cases: [Case] = {
    let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("Conformance/bindings.json")
    guard let data = try? Data(contentsOf: url), let file = try? JSON(parsing: data),
      let cases = file["cases"]?.arrayValue
    else { return [] }
    return cases.compactMap { entry in
      guard let name = entry["name"]?.stringValue, let markup = entry["markup"]?.stringValue,
        let expected = entry["expected"]?.stringValue, let topics = entry["topics"]?.objectValue
      else { return nil }
      return Case(
        name: name, markup: markup, href: entry["href"]?.stringValue,
        topics: Dictionary(uniqueKeysWithValues: topics.map { ($0.key, $0.value) }), expected: expected)
    }
  }()

  @Test func theCasesAreThere() {
    #expect(Self.cases.count >= 20)
  }

  @Test(arguments: cases) func rendersAsTheRuntimeShows(_ conformance: Case) {
    let target = conformance.href.map { href -> String in
      guard let url = URL(string: href) else { return "/" }
      return url.path(percentEncoded: true) + (url.query(percentEncoded: true).map { "?" + $0 } ?? "")
    }
    let location = PageLocation(target: target ?? "/")
    let states = conformance.topics.mapValues { RenderedTopic(revision: 1, state: $0) }
    let rendered = PageRenderer.render(
      HTMLTemplateParser.parse(conformance.markup), at: location, states: states, pageData: nil)
    #expect(
      NormalizedDOM.of(HTMLTemplateParser.parse(rendered))
        == NormalizedDOM.of(HTMLTemplateParser.parse(conformance.expected)))
  }
}
