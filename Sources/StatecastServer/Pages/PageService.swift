import Foundation
import Statecast
import StatecastJSON

/// Answers the `GET` of a page that binds topics with the page rendered in its first
/// state: the request opens the tab's session (``PageSessions``), each top-level topic
/// is rendered with its state (``PageRenderer``), and the page carries the session for
/// its runtime to resume. docs/FIRST_PAINT.md has the whole design.
final class PageService: Sendable {
  /// URL path → file, for the pages rendered at an exact path.
  let pages: [String: String]
  /// App page prefixes (deep links), longest first, each with its file.
  private let appPages: [(prefix: String, path: String)]
  private let templates: PageTemplates
  private let sessions: PageSessions
  private let authenticate: (@Sendable (UpgradeRequestInfo) -> Authentication)?
  /// The public directory, absolute.
  private let directory: String

  init(
    directory: String, appPages: [String: String], templates: PageTemplates, sessions: PageSessions,
    authenticate: (@Sendable (UpgradeRequestInfo) -> Authentication)?
  ) {
    self.directory = directory
    pages = PageTemplates.renderedPages(in: directory)
    self.appPages = appPages.map { prefix, file in
      let trimmed = prefix.count > 1 && prefix.hasSuffix("/") ? String(prefix.dropLast()) : prefix
      return (trimmed, directory + "/" + file)
    }.sorted { $0.0.count > $1.0.count }
    self.templates = templates
    self.sessions = sessions
    self.authenticate = authenticate
  }

  /// The page for a request, rendered.
  func answer(_ request: UpgradeHeaders) async -> PageAnswer {
    var location = PageLocation(target: request.path)
    guard let file = file(for: location.pathname), let template = templates.template(at: file) else {
      return PageAnswer(status: 404, contentType: "text/plain", body: Array("not found".utf8))
    }
    let info = UpgradeRequestInfo(request)
    location.browser = PageLocation.browserID(in: info)
    let pageTopics = PageRenderer.topics(in: template.nodes, at: location)
    var viewer = Viewer.guest()
    switch authenticate?(info) {
    case .viewer(let signedIn)?: viewer = signedIn
    case .refused?:
      return PageAnswer(status: 200, body: Array(template.source.utf8), headers: template.headers)
    default: break
    }
    guard !pageTopics.isEmpty else {
      return PageAnswer(status: 200, body: Array(template.source.utf8), headers: template.headers)
    }
    let opened = await sessions.open(pageTopics, viewer: viewer, address: request.peerAddress)
    let html = PageRenderer.render(
      template.nodes, at: location, states: opened.states,
      pageData: opened.session.map { Self.pageData(session: $0, topics: pageTopics, states: opened.states) })
    return PageAnswer(status: 200, body: Array(html.utf8), headers: template.headers)
  }

  /// Live navigation: the page at `target` rendered in the socket's own session, its
  /// topics joined on the socket (their snapshots go out as for any join). Any page of
  /// the public directory may be the target, also one that binds nothing.
  func navigate(
    _ target: String, session: String, viewer: Viewer, connection: ConnectionID, address: String
  ) async throws(ProtocolError) -> String {
    let location = PageLocation(target: target)
    guard let file = navigableFile(for: location.pathname), let template = templates.template(at: file) else {
      throw ProtocolError(.unknownPage, "no page at \(location.pathname)")
    }
    let pageTopics = PageRenderer.topics(in: template.nodes, at: location)
    guard !pageTopics.isEmpty else { return template.source }
    let states = await sessions.join(
      pageTopics, session: session, viewer: viewer, connection: connection, address: address)
    return PageRenderer.render(
      template.nodes, at: location, states: states,
      pageData: Self.pageData(session: session, topics: pageTopics, states: states))
  }

  /// The file of a page live navigation may show: a rendered page, an app page, or any
  /// `.html` file at the top of the public directory (`/` is its `index.html`).
  private func navigableFile(for path: String) -> String? {
    if let file = file(for: path) { return file }
    let name = path == "/" ? "index.html" : String(path.dropFirst())
    guard name.hasSuffix(".html"), !name.hasPrefix("."),
      name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" || $0 == ".") })
    else { return nil }
    let file = directory + "/" + name
    return FileManager.default.fileExists(atPath: file) ? file : nil
  }

  /// The session a page carries for its runtime (see `Runtime/statecast/rendered-page.js`).
  static func pageData(session: String, topics: [PageTopic], states: [String: RenderedTopic]) -> JSON {
    var rendered = JSONObject()
    for topic in topics {
      guard let state = states[topic.name] else { continue }
      var entry: JSONObject = ["rev": .int(Int64(state.revision)), "state": state.state]
      if let params = topic.params { entry["params"] = params }
      rendered[topic.name] = .object(entry)
    }
    return .object(["session": .string(session), "topics": .object(rendered)])
  }

  private func file(for path: String) -> String? {
    if let file = pages[path] { return file }
    for page in appPages where page.prefix == "/" || path == page.prefix || path.hasPrefix(page.prefix + "/")
    {
      return page.path
    }
    return nil
  }
}
