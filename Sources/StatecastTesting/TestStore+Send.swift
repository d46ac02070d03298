import CustomDump
import IssueReporting
public import Statecast

extension TestStore {
  /// Sends an action as the user would, and asserts how it changes the state.
  ///
  /// The closure receives the state before the action and must turn it into the
  /// state after it; leave it out when the action changes nothing. Received actions
  /// must all have been asserted before a new action is sent. With
  /// ``Exhaustivity/off`` the closure receives the state after the action instead, and
  /// only what it sets is checked.
  ///
  /// ```swift
  /// await store.send(.incrementTapped) { $0.count = 1 }
  /// ```
  ///
  /// - Returns: the work the action started; `task.cancel()` stops a
  ///   long-running effect the test does not want to drive to its end.
  @discardableResult
  public nonisolated(nonsending) func send(
    _ action: Action,
    assert updateExpectedState: ((_ state: inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async -> StoreTask {
    if exhaustivity == .on {
      let unhandled = log.received
      if !unhandled.isEmpty {
        reportIssue(
          Self.unhandledMessage(unhandled, when: "before sending an action"),
          fileID: fileID, filePath: filePath, line: line, column: column
        )
      }
    }
    let task = await store.send(TestAction(action: action, origin: .test))
    guard let entry = log.takeSent() else {
      reportIssue(
        "The store did not process \(String(customDumping: action)): it was closed.",
        fileID: fileID, filePath: filePath, line: line, column: column
      )
      return task
    }
    assertStateChange(
      entry, update: updateExpectedState,
      fileID: fileID, filePath: filePath, line: line, column: column
    )
    return task
  }

  /// Compares the state an action produced with what the test expected, and
  /// advances ``state``.
  func assertStateChange(
    _ entry: ActionLog<State, Action>.Entry,
    update: ((inout State) throws -> Void)?,
    fileID: StaticString,
    filePath: StaticString,
    line: UInt,
    column: UInt
  ) {
    defer { state = entry.after }
    var expected = exhaustivity == .on ? entry.before : entry.after
    do {
      try update?(&expected)
    } catch {
      reportIssue(
        "The state assertion threw an error: \(error)",
        fileID: fileID, filePath: filePath, line: line, column: column
      )
      return
    }
    if expected != entry.after {
      let difference =
        diff(expected, entry.after, format: .proportional)
        .map { "\($0.indented)\n\n(Expected: −, Actual: +)" }
        ?? "Expected:\n\(String(customDumping: expected).indented)\nActual:\n\(String(customDumping: entry.after).indented)"
      let summary =
        update == nil
        ? "State was not expected to change, but a change occurred:"
        : "A state change does not match expectation:"
      reportIssue(
        "\(summary) …\n\n\(difference)",
        fileID: fileID, filePath: filePath, line: line, column: column
      )
    } else if exhaustivity == .on, update != nil, expected == entry.before {
      reportIssue(
        """
        Expected state to change, but no change occurred.

        The trailing closure made no observable modifications to state. If no change to \
        state is expected, omit the trailing closure.
        """,
        fileID: fileID, filePath: filePath, line: line, column: column
      )
    }
  }

  static func unhandledMessage(_ entries: [ActionLog<State, Action>.Entry], when: String) -> String {
    let list = entries.map { String(customDumping: $0.action).indented }.joined(separator: "\n")
    return "Must handle \(entries.count) received action(s) \(when):\n\n\(list)"
  }

  static var runningEffectsMessage: String {
    """
    An effect or middleware is still running. It must finish before the test ends \
    (await store.finish(), drive its clock, or cancel it with an action), or use \
    exhaustivity .off.
    """
  }
}

extension String {
  /// The text of `value` as CustomDump prints it.
  init(customDumping value: some Any) {
    var text = ""
    customDump(value, to: &text)
    self = text
  }

  /// Every line indented by four spaces, to set a dump apart from its message.
  var indented: String {
    split(separator: "\n", omittingEmptySubsequences: false)
      .map { "    \($0)" }.joined(separator: "\n")
  }
}
