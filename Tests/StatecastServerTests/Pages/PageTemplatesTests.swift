import Foundation
import Testing

@testable import StatecastServer

/// Page templates are parsed once; in development a changed file is parsed again.
@Suite struct PageTemplatesTests {
  private func withPage(_ body: (String) throws -> Void) throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("statecast-pages-\(UUID())")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let file = directory.appendingPathComponent("page.html").path
    try #"<div data-sc-topic="a"></div>"#.write(toFile: file, atomically: true, encoding: .utf8)
    try body(file)
  }

  private func change(_ file: String) throws {
    try #"<div data-sc-topic="b"></div>"#.write(toFile: file, atomically: true, encoding: .utf8)
    // A modification time other than the first parse's, however fast the machine.
    try FileManager.default.setAttributes(
      [.modificationDate: Date(timeIntervalSinceNow: 60)], ofItemAtPath: file)
  }

  @Test func aTemplateIsParsedOnce() throws {
    try withPage { file in
      let templates = PageTemplates(reloads: false)
      #expect(templates.template(at: file)?.source.contains("\"a\"") == true)
      try change(file)
      #expect(templates.template(at: file)?.source.contains("\"a\"") == true)
    }
  }

  @Test func inDevelopmentAChangedTemplateIsParsedAgain() throws {
    try withPage { file in
      let templates = PageTemplates(reloads: true)
      #expect(templates.template(at: file)?.source.contains("\"a\"") == true)
      try change(file)
      let topics = PageRenderer.topics(
        in: templates.template(at: file)?.nodes ?? [], at: PageLocation(target: "/"))
      #expect(topics.map(\.name) == ["b"])
    }
  }

  @Test func theRenderedPagesAreThoseThatBindTopics() throws {
    try withPage { file in
      let directory = (file as NSString).deletingLastPathComponent
      try "<p>static</p>".write(toFile: directory + "/static.html", atomically: true, encoding: .utf8)
      try #"<b data-sc-topic="x"></b>"#.write(
        toFile: directory + "/index.html", atomically: true, encoding: .utf8)
      #expect(Set(PageTemplates.renderedPages(in: directory).keys) == ["/page.html", "/index.html", "/"])
    }
  }
}
