import Foundation
import Statecast
import Testing

/// The Swift Testing file a recorded session becomes: the same text the debug panel
/// writes (`Tests/JS/debug-history.test.js` checks the panel against the same fixture).
@Suite("Recorded session")
struct RecordedSessionTests {
  static let fixtures = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("JS/fixtures")

  @Test func aRecordingBecomesTheFileThePanelWrites() throws {
    let recording = try JSONDecoder().decode(
      RecordedSession.self,
      from: Data(contentsOf: Self.fixtures.appendingPathComponent("recorded-session.json")))
    #expect(recording.steps.count == 2)
    let expected = try String(
      contentsOf: Self.fixtures.appendingPathComponent("recorded-session.swift.txt"), encoding: .utf8)
    let target = RecordedSession.Target(
      feature: "Counter", module: "StatecastExamples",
      initialState: "Counter.State(isLoadingFavorites: false)")
    #expect(recording.swiftTestingFile(target) == expected)
  }

  /// A feature whose view or reducer depends on who acts replays as one viewer: the
  /// panel's "Viewer" field, `export-test --viewer`.
  @Test func aRecordingReplayedAsAViewerSendsAndSeesAsThem() throws {
    let recording = try JSONDecoder().decode(
      RecordedSession.self,
      from: Data(contentsOf: Self.fixtures.appendingPathComponent("recorded-session.json")))
    let expected = try String(
      contentsOf: Self.fixtures.appendingPathComponent("recorded-session-viewer.swift.txt"), encoding: .utf8)
    let target = RecordedSession.Target(
      feature: "Counter", module: "StatecastExamples",
      initialState: "Counter.State(isLoadingFavorites: false)", viewer: #"Viewer(id: "ada", name: "Ada")"#)
    #expect(recording.swiftTestingFile(target) == expected)
  }

  @Test func aTargetDefaultsToTheFeaturesInitialStateAndReducer() {
    let target = RecordedSession.Target(feature: "Tally", module: "App")
    #expect(target.initialState == "Tally.initialState")
    #expect(target.reducer == "Tally.reducer(dependencies: Tally.Dependencies())")
  }
}
