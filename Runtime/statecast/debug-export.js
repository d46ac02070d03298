/**
 * A topic's recorded session as a Swift Testing file: the debug panel's "Export as Swift
 * test". It replays the tab's accepted actions through the feature's reducer in a
 * `TestStore` and expects, after each, the view the server sent then. The text is the
 * one `statecast-demo export-test` writes from the same recording (`RecordedSession` in
 * `StatecastTesting`), so either can be used.
 * @module
 */

/**
 * @typedef {{ topic: string, initialView: string, steps: { action: string, view: string }[] }} Recording
 *   actions and views as JSON texts
 * @typedef {{ feature: string, module: string, initialState?: string, reducer?: string, viewer?: string }} ExportTarget
 *   Swift names and expressions: the feature's type, its module, the test store's
 *   initial state (`FEATURE.initialState` by default) and reducer, and the viewer who
 *   sends the actions and sees the views (`embed(_:from:)`, `viewState(_:for:)`), if any
 */

/**
 * @param {Recording} recording
 * @param {ExportTarget} target
 * @returns {string}
 */
export function swiftTestingFile(recording, target) {
  const feature = target.feature;
  const initialState = target.initialState || `${feature}.initialState`;
  const reducer = target.reducer || `${feature}.reducer(dependencies: ${feature}.Dependencies())`;
  const lines = [
    `// A session of the topic "${recording.topic.replace(/\n/g, " ")}" recorded by the Statecast debug panel: ${recording.steps.length} actions.`,
    "// Each goes through the feature's reducer in a TestStore, and the view after it must be",
    "// the one the server sent the page then.",
    "import Foundation",
    "import Statecast",
    "import StatecastTesting",
    "import Testing",
    `import ${target.module}`,
    "",
    "@Test func recordedSessionReplays() async throws {",
    `  let store = TestStore(initialState: ${initialState}, reducer: ${reducer})`,
    "  store.exhaustivity = .off",
  ];
  // As a viewer: each action sent as them, each view the one they see.
  const viewer = target.viewer || undefined;
  const [asViewer, forViewer, viewerParameter, viewerArgument] =
    viewer === undefined ? ["", "", "", ""] : [", from: viewer", ", for: viewer", " for viewer: Viewer,", " for: viewer,"];
  if (viewer !== undefined) lines.push(`  let viewer = ${viewer}`);
  lines.push(`  try expectView(of: store,${viewerArgument} ${rawLiteral(recording.initialView)})`);
  for (const step of recording.steps) {
    lines.push(`  await store.send(${feature}.embed(try action(${rawLiteral(step.action)})${asViewer}))`);
    lines.push(`  try expectView(of: store,${viewerArgument} ${rawLiteral(step.view)})`);
  }
  lines.push(
    "}",
    "",
    `private func action(_ json: String) throws -> ${feature}.ClientAction {`,
    `  try JSONDecoder().decode(${feature}.ClientAction.self, from: Data(json.utf8))`,
    "}",
    "",
    "private func expectView(",
    `  of store: TestStore<${feature}.State, ${feature}.Action>,${viewerParameter} _ recorded: String,`,
    "  sourceLocation: SourceLocation = #_sourceLocation",
    ") throws {",
    `  let shown = try canonical(JSONEncoder().encode(${feature}.viewState(store.state${forViewer})))`,
    "  let expected = try canonical(Data(recorded.utf8))",
    '  #expect(shown == expected, "not the view recorded", sourceLocation: sourceLocation)',
    "}",
    "",
    "private func canonical(_ json: Data) throws -> String {",
    "  let value = try JSONSerialization.jsonObject(with: json, options: .fragmentsAllowed)",
    "  let data = try JSONSerialization.data(withJSONObject: value, options: [.sortedKeys, .fragmentsAllowed])",
    "  return String(decoding: data, as: UTF8.self)",
    "}",
    "",
  );
  return lines.join("\n");
}

/**
 * `text` as a Swift raw string literal with as few `#` as keep it intact.
 * @param {string} text
 */
export function rawLiteral(text) {
  let hashes = "#";
  while (text.includes(`"${hashes}`) || text.includes(`\\${hashes}`)) hashes += "#";
  return `${hashes}"${text}"${hashes}`;
}
