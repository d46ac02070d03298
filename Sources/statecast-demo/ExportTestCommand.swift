import ArgumentParser
import Foundation
import Statecast

/// `statecast-demo export-test SESSION.json --feature Counter --module StatecastExamples`:
/// the Swift Testing file that replays a session the debug panel recorded ("Export
/// session"), the same file its "Export as Swift test" writes.
struct ExportTestCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "export-test",
    abstract: "Writes a recorded session (the debug panel's \"Export session\") as a Swift Testing file.",
    discussion: """
      The test replays the session's actions through the feature's reducer in a \
      TestStore and expects, after each, the view the page had. Written to standard \
      output unless --output names a file.
      """
  )

  @Argument(help: "The recording, as the debug panel exported it.")
  var recording: String

  @Option(help: "The feature's Swift type, e.g. Counter.")
  var feature: String

  @Option(help: "The module that declares it, e.g. StatecastExamples.")
  var module: String

  @Option(help: "The test store's initial state (default: FEATURE.initialState).")
  var initialState: String?

  @Option(help: "The reducer to run (default: FEATURE.reducer(dependencies: FEATURE.Dependencies())).")
  var reducer: String?

  @Option(
    help: """
      Who sends the actions and sees the views, e.g. 'Viewer(id: "ada", name: "Ada")', for a \
      feature with embed(_:from:) or viewState(_:for:) (default: embed(_:) and viewState(_:)).
      """)
  var viewer: String?

  @Option(name: .shortAndLong, help: "Write the file here instead of to standard output.")
  var output: String?

  func run() throws {
    let session: RecordedSession
    do {
      session = try JSONDecoder().decode(
        RecordedSession.self, from: Data(contentsOf: URL(fileURLWithPath: recording)))
    } catch {
      throw ValidationError("\(recording) is not a recorded session: \(error)")
    }
    let target = RecordedSession.Target(
      feature: feature, module: module, initialState: initialState, reducer: reducer, viewer: viewer)
    let text = session.swiftTestingFile(target)
    if let output {
      try Data(text.utf8).write(to: URL(fileURLWithPath: output))
    } else {
      FileHandle.standardOutput.write(Data(text.utf8))
    }
  }
}
