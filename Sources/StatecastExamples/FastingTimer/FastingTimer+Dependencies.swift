import Statecast

extension FastingTimer {
  /// What the fasting timer needs from the outside world.
  public struct Dependencies: Sendable {
    /// The clock the timer ticks on; a `TestClock` in tests.
    public var clock: any Clock<Duration>
    /// Shares a finished fast; throws when the service refuses it.
    public var share: @Sendable (_ summary: FastSummary) async throws -> Void

    public init(
      clock: any Clock<Duration>, share: @escaping @Sendable (_ summary: FastSummary) async throws -> Void
    ) {
      self.clock = clock
      self.share = share
    }

    /// The demo's dependencies: the continuous clock, and a share service that records
    /// each shared fast in `journal` after `shareDelay`, refusing empty fasts.
    public static func live(
      clock: any Clock<Duration> = ContinuousClock(),
      shareDelay: Duration = .milliseconds(600),
      journal: FastJournal = FastJournal()
    ) -> Self {
      Self(clock: clock) { summary in
        try await clock.sleep(for: shareDelay)
        try await journal.record(summary)
      }
    }
  }
}
