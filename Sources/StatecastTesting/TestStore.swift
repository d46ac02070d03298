import IssueReporting
public import Statecast

/// A store for tests that asserts, exhaustively, every state change and every action
/// that effects send back.
///
/// It runs the feature's real reducer, middlewares and event sources in a real
/// `Store`, and records each action with the state before and after it. The test
/// then reads like a script of what happens:
///
/// ```swift
/// let clock = TestClock()
/// let store = TestStore(initialState: Counter(), reducer: counter(primes: .stub(17)))
///
/// await store.send(.incrementTapped) { $0.count = 1 }
/// await store.send(.nthPrimeTapped) { $0.isLoading = true }
/// await store.receive(.nthPrimeResponse(17)) {
///   $0.isLoading = false
///   $0.prime = 17
/// }
/// await store.finish()
/// ```
///
/// By default (``Exhaustivity/on``) a test fails, with a readable diff of expected
/// against actual state, on any state change its closures do not describe, on any
/// received action it does not `receive(_:timeout:assert:)`,
/// and on any effect still running when the test ends (at ``finish(timeout:fileID:filePath:line:column:)``,
/// or when the TestStore is released). Failures are reported through IssueReporting,
/// so they appear in Swift Testing and XCTest alike.
///
/// Time: give the feature a `TestClock` (re-exported from swift-clocks) as its
/// `any Clock<Duration>` dependency and call `await clock.advance(by:)`; or an
/// `ImmediateClock` to make every sleep return at once.
public final class TestStore<State: Equatable & Sendable, Action: Sendable> {
  /// The state after the last action the test asserted (or skipped).
  public internal(set) var state: State

  /// How long `receive(_:timeout:assert:)` and
  /// ``finish(timeout:fileID:filePath:line:column:)`` wait by default. Generous,
  /// because effects run concurrently on a possibly busy machine; a passing test
  /// never waits for it.
  public var timeout: Duration

  /// Whether unasserted changes, received actions and running effects fail the test.
  public var exhaustivity: Exhaustivity = .on

  let store: Store<State, TestAction<Action>>
  let log: ActionLog<State, Action>
  var hasReportedRunningEffects = false
  private let fileID: StaticString
  private let filePath: StaticString
  private let line: UInt
  private let column: UInt

  /// Creates a test store running the feature's reducer, middlewares and event sources.
  ///
  /// - Parameters:
  ///   - initialState: the state before the first action.
  ///   - reducer: the feature's reducer.
  ///   - middlewares: the feature's middlewares, built with test dependencies.
  ///   - eventSources: event sources; the actions they send must be received.
  ///   - timeout: how long to wait for received actions and for effects to finish.
  ///   - onError: where errors of effects, middlewares and event sources go when no
  ///     `catch:` handler takes them; by default each one fails the test.
  ///   - fileID: where the store's own failures are reported, with `filePath`, `line` and
  ///     `column`: the test that made it, by default.
  ///   - filePath: see `fileID`.
  ///   - line: see `fileID`.
  ///   - column: see `fileID`.
  public init(
    initialState: State,
    reducer: Reducer<State, Action>,
    middlewares: [Middleware<State, Action>] = [],
    eventSources: [EventSource<Action>] = [],
    timeout: Duration = .seconds(5),
    onError: (@Sendable (any Error) -> Void)? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    let log = ActionLog<State, Action>()
    let recording = Reducer<State, TestAction<Action>> { state, tagged in
      let before = state
      let effect = reducer.reduce(into: &state, action: tagged.action)
      log.record(.init(action: tagged.action, before: before, after: state), origin: tagged.origin)
      return effect.map { TestAction(action: $0, origin: .received) }
    }
    self.store = Store(
      initialState: initialState,
      reducer: recording,
      middlewares: middlewares.map { middleware in
        Middleware { state, tagged in
          try await middleware.run(state: state, action: tagged.action)
            .map { TestAction(action: $0, origin: .received) }
        }
      },
      eventSources: eventSources.map { source in
        EventSource { send in
          try await source.body(send.map { TestAction(action: $0, origin: .received) })
        }
      },
      onError: onError ?? { error in
        reportIssue(
          "An effect threw an error that no catch: handler took: \(error)",
          fileID: fileID, filePath: filePath, line: line, column: column
        )
      }
    )
    self.log = log
    self.state = initialState
    self.timeout = timeout
    self.fileID = fileID
    self.filePath = filePath
    self.line = line
    self.column = column
  }

  deinit {
    if exhaustivity == .on {
      if !hasReportedRunningEffects && store.ownedTasks.hasEffectsInFlight {
        reportIssue(
          Self.runningEffectsMessage,
          fileID: fileID, filePath: filePath, line: line, column: column
        )
      }
      let unhandled = log.takeAllReceived()
      if !unhandled.isEmpty {
        reportIssue(
          Self.unhandledMessage(unhandled, when: "before the test ends"),
          fileID: fileID, filePath: filePath, line: line, column: column
        )
      }
    }
    store.ownedTasks.cancelAll()
  }
}
