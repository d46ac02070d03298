import Foundation
import StatecastTransport

/// The public directory's page templates, each parsed once (``HTMLTemplateParser``) at
/// its first request and kept; in development (``ServerConfiguration/reloadsPageTemplates``)
/// a template whose file changed is parsed again, so an edited page shows on reload.
final class PageTemplates: Sendable {
  struct Template: Sendable {
    /// The file as it is, served when the page binds nothing the server can render.
    var source: String
    var nodes: [HTMLNode]
    var modified: Date?
    /// Header lines sent with the page: see ``runtimePreloads(for:)``.
    var headers: [String]
  }

  /// The `Link` header that starts fetching the runtime's stylesheet with the page, for a
  /// page that loads the runtime through the early snippet. The snippet inserts the
  /// stylesheet only once it has been fetched and run, so without the header the
  /// stylesheet, which holds the first paint, is requested one round trip late. The
  /// module is not preloaded: ready that early, it would run (and be compiled) in the
  /// middle of the page's parsing, which it would only hold up (docs/FIRST_PAINT.md,
  /// "A fast first paint").
  static func runtimePreloads(for source: String) -> [String] {
    guard source.contains("/statecast/early.js") else { return [] }
    return ["Link: </statecast.css>; rel=preload; as=style"]
  }

  private let reloads: Bool
  private let cache = Locked<[String: Template]>([:])

  init(reloads: Bool) {
    self.reloads = reloads
  }

  /// The template of the file at `path`, or `nil` when it cannot be read.
  func template(at path: String) -> Template? {
    let cached = cache.withLock { $0[path] }
    if let cached, !reloads { return cached }
    let modified = (try? FileManager.default.attributesOfItem(atPath: path))?[.modificationDate] as? Date
    if let cached, cached.modified == modified { return cached }
    guard let data = FileManager.default.contents(atPath: path) else { return nil }
    let source = String(decoding: data, as: UTF8.self)
    let template = Template(
      source: source, nodes: HTMLTemplateParser.parse(source), modified: modified,
      headers: Self.runtimePreloads(for: source))
    cache.withLock { $0[path] = template }
    return template
  }

  /// The pages of `directory` the server renders: its `.html` files (not in
  /// subdirectories) that bind a topic, by the URL path that serves them (`/counter.html`,
  /// and `/` for an `index.html`).
  static func renderedPages(in directory: String) -> [String: String] {
    let files = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
    var pages: [String: String] = [:]
    for name in files where name.hasSuffix(".html") && !name.hasPrefix(".") {
      let path = directory + "/" + name
      guard let data = FileManager.default.contents(atPath: path),
        String(decoding: data, as: UTF8.self).contains("data-sc-topic")
      else { continue }
      pages["/" + name] = path
      if name == "index.html" { pages["/"] = path }
    }
    return pages
  }
}
