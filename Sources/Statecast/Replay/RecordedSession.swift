import Foundation

/// A session of one topic as a tab lived it: the view it joined with, then each action it
/// sent that the server accepted, in order, with the view once that action was applied.
/// The debug panel records one (`?debug`, "Export session"); ``swiftTestingFile(_:)``
/// turns it into a Swift Testing file that replays it through the feature's reducer in a
/// `TestStore` (`StatecastTesting`) and expects the same view after every step, so a
/// session that showed a bug becomes a regression test. (It lives in the core, beside no testing code, so that
/// a server's command line can write the file without linking the test libraries.)
///
/// Actions and views are kept as the JSON texts the page had (`{"increment":{}}`), so the
/// panel and `statecast-demo export-test` write the same file from one recording.
public struct RecordedSession: Codable, Equatable, Sendable {
  /// One accepted action and the view the server showed after it.
  public struct Step: Codable, Equatable, Sendable {
    /// The client action's JSON, as sent.
    public var action: String
    /// The topic's view (without the server's `presence`) once the action was applied.
    public var view: String

    public init(action: String, view: String) {
      self.action = action
      self.view = view
    }
  }

  /// How the exported file reaches the feature: Swift expressions and names.
  public struct Target: Equatable, Sendable {
    /// The feature's type, e.g. `Counter`.
    public var feature: String
    /// The module that declares it, e.g. `StatecastExamples`.
    public var module: String
    /// The state the test store starts from, e.g. `Counter.State()`.
    public var initialState: String
    /// The reducer it runs, e.g. `Counter.reducer(dependencies: .test)`.
    public var reducer: String
    /// Who sends the actions, e.g. `Viewer(id: "ada", name: "Ada")`, for a feature that
    /// records senders (`embed(_:from:)`) or shows each viewer their own view
    /// (`viewState(_:for:)`): the test then sends every action as this viewer and compares
    /// the view this viewer sees. `nil`: `embed(_:)` and `viewState(_:)`, as for a view
    /// that is the same for everyone.
    public var viewer: String?

    public init(
      feature: String, module: String, initialState: String? = nil, reducer: String? = nil,
      viewer: String? = nil
    ) {
      self.feature = feature
      self.module = module
      self.initialState = initialState ?? "\(feature).initialState"
      self.reducer = reducer ?? "\(feature).reducer(dependencies: \(feature).Dependencies())"
      self.viewer = viewer
    }
  }

  public var topic: String
  /// The view the tab joined with.
  public var initialView: String
  public var steps: [Step]

  public init(topic: String, initialView: String, steps: [Step]) {
    self.topic = topic
    self.initialView = initialView
    self.steps = steps
  }

  /// The Swift Testing source that replays this session against `target`. The view is
  /// compared as JSON (keys in any order); the store's other changes and its effects are
  /// not asserted (`exhaustivity = .off`): the recording knows only what the page saw.
  public func swiftTestingFile(_ target: Target) -> String {
    let feature = target.feature
    var lines = [
      "// A session of the topic \(Self.quoted(topic)) recorded by the Statecast debug panel: \(steps.count) actions.",
      "// Each goes through the feature's reducer in a TestStore, and the view after it must be",
      "// the one the server sent the page then.",
      "import Foundation",
      "import Statecast",
      "import StatecastTesting",
      "import Testing",
      "import \(target.module)",
      "",
      "@Test func recordedSessionReplays() async throws {",
      "  let store = TestStore(initialState: \(target.initialState), reducer: \(target.reducer))",
      "  store.exhaustivity = .off",
    ]
    // As a viewer: each action sent as them, each view the one they see.
    let (asViewer, forViewer, viewerParameter, viewerArgument) =
      target.viewer == nil
      ? ("", "", "", "") : (", from: viewer", ", for: viewer", " for viewer: Viewer,", " for: viewer,")
    if let viewer = target.viewer { lines.append("  let viewer = \(viewer)") }
    lines.append("  try expectView(of: store,\(viewerArgument) \(Self.rawLiteral(initialView)))")
    for step in steps {
      lines.append(
        "  await store.send(\(feature).embed(try action(\(Self.rawLiteral(step.action)))\(asViewer)))")
      lines.append("  try expectView(of: store,\(viewerArgument) \(Self.rawLiteral(step.view)))")
    }
    lines += [
      "}",
      "",
      "private func action(_ json: String) throws -> \(feature).ClientAction {",
      "  try JSONDecoder().decode(\(feature).ClientAction.self, from: Data(json.utf8))",
      "}",
      "",
      "private func expectView(",
      "  of store: TestStore<\(feature).State, \(feature).Action>,\(viewerParameter) _ recorded: String,",
      "  sourceLocation: SourceLocation = #_sourceLocation",
      ") throws {",
      "  let shown = try canonical(JSONEncoder().encode(\(feature).viewState(store.state\(forViewer))))",
      "  let expected = try canonical(Data(recorded.utf8))",
      "  #expect(shown == expected, \"not the view recorded\", sourceLocation: sourceLocation)",
      "}",
      "",
      "private func canonical(_ json: Data) throws -> String {",
      "  let value = try JSONSerialization.jsonObject(with: json, options: .fragmentsAllowed)",
      "  let data = try JSONSerialization.data(withJSONObject: value, options: [.sortedKeys, .fragmentsAllowed])",
      "  return String(decoding: data, as: UTF8.self)",
      "}",
      "",
    ]
    return lines.joined(separator: "\n")
  }

  /// `text` as a Swift raw string literal with as few `#` as keep it intact.
  static func rawLiteral(_ text: String) -> String {
    var hashes = "#"
    while text.contains("\"" + hashes) || text.contains("\\" + hashes) { hashes += "#" }
    return hashes + "\"" + text + "\"" + hashes
  }

  /// `text` as an ordinary string literal's content, for a comment.
  static func quoted(_ text: String) -> String {
    "\"" + text.replacingOccurrences(of: "\n", with: " ") + "\""
  }
}
