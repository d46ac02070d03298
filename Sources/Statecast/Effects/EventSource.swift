/// A stream of outside events that feeds actions into a store for the store's whole
/// lifetime: a clock, another store's changes, a message bus, a log-out notice.
///
/// The store starts each event source when it is created and cancels it when it
/// closes, so nothing is left listening once the store is gone. An error thrown by
/// the source ends it and goes to the store's `onError`.
///
/// ```swift
/// Store(
///   initialState: Processes(),
///   reducer: processes,
///   eventSources: [
///     EventSource(session.logOuts.map { _ in ProcessesAction.loggedOut }),
///     .timer(every: .seconds(1), clock: dependencies.clock) { .tick },
///   ]
/// )
/// ```
public struct EventSource<Action: Sendable>: Sendable {
  package let body: @Sendable (Send<Action>) async throws -> Void

  /// Creates an event source from a function that sends actions until it returns.
  public init(run: @escaping @Sendable (_ send: Send<Action>) async throws -> Void) {
    self.body = run
  }

  /// Sends every element of `sequence` as an action.
  public init<S: AsyncSequence & Sendable>(_ sequence: S) where S.Element == Action {
    self.body = { send in
      for try await action in sequence { await send(action) }
    }
  }

  /// Builds the sequence when the store starts the source, then sends every element;
  /// for sequences that are not `Sendable` (such as `map` over another sequence).
  public init<S: AsyncSequence & SendableMetatype>(_ makeSequence: @escaping @Sendable () -> S)
  where S.Element == Action {
    self.body = { send in
      for try await action in makeSequence() { await send(action) }
    }
  }

  /// Sends `action()` every `interval` on `clock`, starting one interval after the
  /// store starts; ticks do not drift.
  ///
  /// Pass a `TestClock` in tests to advance time by hand.
  public static func timer(
    every interval: Duration,
    clock: any Clock<Duration>,
    action: @escaping @Sendable () -> Action
  ) -> Self {
    Self { send in try await tick(every: interval, on: clock, send: send, action: action) }
  }

  private static func tick<C: Clock<Duration>>(
    every interval: Duration,
    on clock: C,
    send: Send<Action>,
    action: @Sendable () -> Action
  ) async throws {
    var deadline = clock.now.advanced(by: interval)
    while true {
      try await clock.sleep(until: deadline, tolerance: nil)
      await send(action())
      deadline = deadline.advanced(by: interval)
    }
  }
}
