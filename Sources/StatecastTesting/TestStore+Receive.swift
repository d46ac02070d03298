import CustomDump
import IssueReporting
public import Statecast

extension TestStore {
  /// Waits for the next action sent back by an effect, middleware or event source,
  /// checks that it is `expected`, and asserts how it changed the state.
  ///
  /// ```swift
  /// await store.receive(.nthPrimeResponse(17)) { $0.prime = 17 }
  /// ```
  public nonisolated(nonsending) func receive(
    _ expected: Action,
    timeout: Duration? = nil,
    assert updateExpectedState: ((_ state: inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async where Action: Equatable {
    await receive(
      description: String(customDumping: expected),
      matching: { $0 == expected },
      mismatch: { diff(expected, $0).map { "\($0)\n\n(Expected: −, Received: +)" } },
      timeout: timeout, update: updateExpectedState,
      fileID: fileID, filePath: filePath, line: line, column: column
    )
  }

  /// Waits for the next received action, checks that it is of the case `path`
  /// names (whatever its payload), and asserts how it changed the state.
  ///
  /// ```swift
  /// await store.receive(.loaded) { $0.phase = .loaded(processes) }
  /// ```
  public nonisolated(nonsending) func receive<Value>(
    _ path: ActionPath<Action, Value>,
    timeout: Duration? = nil,
    assert updateExpectedState: ((_ state: inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    await receive(
      description: "an action of the case \(Value.self)",
      matching: { path.extract(from: $0) != nil },
      mismatch: { _ in nil },
      timeout: timeout, update: updateExpectedState,
      fileID: fileID, filePath: filePath, line: line, column: column
    )
  }

  /// Waits for the next received action, checks it with `isMatching`, and asserts how
  /// it changed the state; for actions that are not `Equatable`.
  ///
  /// ```swift
  /// await store.receive(where: { if case .failed = $0 { true } else { false } }) {
  ///   $0.phase = .error
  /// }
  /// ```
  public nonisolated(nonsending) func receive(
    where isMatching: (Action) -> Bool,
    timeout: Duration? = nil,
    assert updateExpectedState: ((_ state: inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    await receive(
      description: "an action matching the predicate",
      matching: isMatching,
      mismatch: { _ in nil },
      timeout: timeout, update: updateExpectedState,
      fileID: fileID, filePath: filePath, line: line, column: column
    )
  }

  private nonisolated(nonsending) func receive(
    description: String,
    matching: (Action) -> Bool,
    mismatch: (Action) -> String?,
    timeout: Duration?,
    update: ((inout State) throws -> Void)?,
    fileID: StaticString,
    filePath: StaticString,
    line: UInt,
    column: UInt
  ) async {
    let limit = timeout ?? self.timeout
    while true {
      guard let entry = await nextReceived(within: limit) else {
        reportIssue(
          """
          Expected to receive \(description), but received none after \(limit).\
          \(store.ownedTasks.hasEffectsInFlight ? "" : " No effect is running.")
          """,
          fileID: fileID, filePath: filePath, line: line, column: column
        )
        return
      }
      if matching(entry.action) {
        assertStateChange(
          entry, update: update, fileID: fileID, filePath: filePath, line: line, column: column)
        return
      }
      if exhaustivity == .off {
        state = entry.after
        continue
      }
      let detail =
        mismatch(entry.action).map { "\n\n\($0.indented)" }
        ?? "\n\n\(String(customDumping: entry.action).indented)"
      reportIssue(
        "Received an unexpected action instead of \(description):\(detail)",
        fileID: fileID, filePath: filePath, line: line, column: column
      )
      assertStateChange(entry, update: update, fileID: fileID, filePath: filePath, line: line, column: column)
      return
    }
  }

  private nonisolated(nonsending) func nextReceived(within limit: Duration) async -> ActionLog<State, Action>
    .Entry?
  {
    if let entry = log.takeReceived() { return entry }
    let log = self.log
    _ = await finished(within: limit) { await log.waitForReceived() }
    return log.takeReceived()
  }
}
