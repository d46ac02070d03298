import Statecast

extension RecruitmentProcesses {
  /// What the recruitment list needs from the outside world.
  public struct Dependencies: Sendable {
    /// Fetches the candidate's processes.
    public var fetchProcesses: @Sendable () async throws -> [Process]
    /// Asks the session service to end the session (it then emits ``SessionEvent/loggedOut``).
    public var expireSession: @Sendable () async -> Void
    /// Forgets what the ended session cached and starts a fresh one.
    public var clearSession: @Sendable () async -> Void
    /// The session's events, subscribed once per store and ended when the store closes.
    public var sessionEvents: @Sendable () -> AsyncStream<SessionEvent>

    public init(
      fetchProcesses: @escaping @Sendable () async throws -> [Process],
      expireSession: @escaping @Sendable () async -> Void,
      clearSession: @escaping @Sendable () async -> Void,
      sessionEvents: @escaping @Sendable () -> AsyncStream<SessionEvent>
    ) {
      self.fetchProcesses = fetchProcesses
      self.expireSession = expireSession
      self.clearSession = clearSession
      self.sessionEvents = sessionEvents
    }

    /// The demo's dependencies, deterministic: one ``RecruitmentService`` per store,
    /// whose first load fails and later loads return ``RecruitmentService/sampleProcesses``
    /// after `latency`.
    public static func live(
      clock: any Clock<Duration> = ContinuousClock(),
      latency: Duration = .milliseconds(500)
    ) -> Self {
      let service = RecruitmentService(clock: clock, latency: latency)
      return Self(
        fetchProcesses: { try await service.fetchProcesses() },
        expireSession: { await service.expireSession() },
        clearSession: { await service.startSession() },
        sessionEvents: { service.events() }
      )
    }
  }

  /// What the session service reports.
  public enum SessionEvent: Equatable, Sendable {
    case loggedOut
  }
}
