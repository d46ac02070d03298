import IssueReporting
import Statecast

extension TestStore {
  /// Waits until every effect and middleware has finished, then checks that every
  /// received action was asserted.
  ///
  /// Call it at the end of a test whose effects end on their own. Running effects
  /// that do not finish within `timeout` fail the test (in exhaustive mode).
  public nonisolated(nonsending) func finish(
    timeout: Duration? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    let tasks = store.ownedTasks
    let settled = await finished(within: timeout ?? self.timeout) { await tasks.waitForEffects() }
    guard exhaustivity == .on else { return }
    if !settled && tasks.hasEffectsInFlight {
      hasReportedRunningEffects = true
      reportIssue(Self.runningEffectsMessage, fileID: fileID, filePath: filePath, line: line, column: column)
    }
    let unhandled = log.takeAllReceived()
    if let last = unhandled.last {
      state = last.after
      reportIssue(
        Self.unhandledMessage(unhandled, when: "before the test ends"),
        fileID: fileID, filePath: filePath, line: line, column: column
      )
    }
  }

  /// Drops the received actions not yet asserted, keeping the state they produced.
  ///
  /// For tests that care about an outcome, not about each step on the way.
  ///
  /// - Parameters:
  ///   - strict: fail when there is nothing to skip.
  ///   - fileID: where a failure is reported, with `filePath`, `line` and `column`: the
  ///     caller, by default.
  ///   - filePath: see `fileID`.
  ///   - line: see `fileID`.
  ///   - column: see `fileID`.
  public nonisolated(nonsending) func skipReceivedActions(
    strict: Bool = true,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    let skipped = log.takeAllReceived()
    if let last = skipped.last {
      state = last.after
    } else if strict {
      reportIssue(
        "There were no received actions to skip.",
        fileID: fileID, filePath: filePath, line: line, column: column
      )
    }
  }

  /// Cancels the effects and middlewares still running and waits until they have
  /// ended, so that a test can stop without driving them to completion.
  ///
  /// - Parameters:
  ///   - strict: fail when nothing was running.
  ///   - fileID: where a failure is reported, with `filePath`, `line` and `column`: the
  ///     caller, by default.
  ///   - filePath: see `fileID`.
  ///   - line: see `fileID`.
  ///   - column: see `fileID`.
  public nonisolated(nonsending) func cancelInFlightEffects(
    strict: Bool = true,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    let tasks = store.ownedTasks
    if strict && !tasks.hasEffectsInFlight {
      reportIssue(
        "There were no in-flight effects to cancel.",
        fileID: fileID, filePath: filePath, line: line, column: column
      )
    }
    tasks.cancelEffects()
    if await !finished(within: timeout, { await tasks.waitForEffects() }) {
      hasReportedRunningEffects = true
      reportIssue(
        "Effects did not end within \(timeout) of being cancelled.",
        fileID: fileID, filePath: filePath, line: line, column: column
      )
    }
  }
}
