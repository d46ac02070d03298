import Foundation
public import FoundationEssentials
import Synchronization

/// The demo's recruitment back end and session, in memory and deterministic.
///
/// It stands in for a network API so that a person sees every state of the list: the
/// first fetch fails (the page shows the error and a retry button), later fetches
/// return ``sampleProcesses``. Expiring the session emits
/// ``RecruitmentProcesses/SessionEvent/loggedOut`` to every subscriber of ``events()``,
/// the way a real session service would notice an expired token; fetching without a
/// session fails until ``startSession()``.
///
/// ```swift
/// let service = RecruitmentService(clock: ContinuousClock(), latency: .zero)
/// try? await service.fetchProcesses()   // throws: the first load fails
/// try await service.fetchProcesses()    // sampleProcesses
/// ```
public final class RecruitmentService: Sendable {
  /// The processes every successful fetch returns.
  public static let sampleProcesses: [RecruitmentProcesses.Process] = [
    RecruitmentProcesses.Process(
      id: "p1", company: "Jobandtalent", position: "iOS Engineer", stage: "Interview on Thursday"),
    RecruitmentProcesses.Process(
      id: "p2", company: "PlanGrid", position: "Mobile Architect", stage: "Application received"),
    RecruitmentProcesses.Process(
      id: "p3", company: "Point-Free", position: "Swift Developer", stage: "Offer made"),
  ]

  private struct Session {
    var isActive = true
    var fetches = 0
    var subscribers: [Int: AsyncStream<RecruitmentProcesses.SessionEvent>.Continuation] = [:]
    var nextSubscriber = 0
  }

  private let clock: any Clock<Duration>
  private let latency: Duration
  private let session = Mutex(Session())

  public init(clock: any Clock<Duration>, latency: Duration) {
    self.clock = clock
    self.latency = latency
  }

  /// The candidate's processes after `latency`; the very first call fails, as does any
  /// call while the session is expired.
  public func fetchProcesses() async throws -> [RecruitmentProcesses.Process] {
    try await clock.sleep(for: latency)
    return try session.withLock { session in
      guard session.isActive else { throw RecruitmentServiceError.notLoggedIn }
      session.fetches += 1
      guard session.fetches > 1 else { throw RecruitmentServiceError.unreachable }
      return Self.sampleProcesses
    }
  }

  /// Ends the session and tells every subscriber that the candidate was logged out.
  public func expireSession() async {
    let subscribers = session.withLock { session in
      session.isActive = false
      return Array(session.subscribers.values)
    }
    for subscriber in subscribers { subscriber.yield(.loggedOut) }
  }

  /// Starts a fresh session (after a log-out, once the old one's data is cleared).
  public func startSession() async {
    session.withLock { $0.isActive = true }
  }

  /// A stream of session events for one subscriber; it ends when the subscriber stops
  /// listening (for a store, when it closes).
  public func events() -> AsyncStream<RecruitmentProcesses.SessionEvent> {
    let (stream, continuation) = AsyncStream<RecruitmentProcesses.SessionEvent>.makeStream()
    let id = session.withLock { session in
      let id = session.nextSubscriber
      session.nextSubscriber += 1
      session.subscribers[id] = continuation
      return id
    }
    continuation.onTermination = { [weak self] _ in
      _ = self?.session.withLock { $0.subscribers.removeValue(forKey: id) }
    }
    return stream
  }
}

/// Why the demo's recruitment service could not answer.
public enum RecruitmentServiceError: LocalizedError, Equatable, CustomStringConvertible {
  /// The first load of every store fails, so that the error and the retry show.
  case unreachable
  /// The session expired and no new one started.
  case notLoggedIn

  public var errorDescription: String? { description }

  public var description: String {
    switch self {
    case .unreachable: "The recruitment service could not be reached. Please try again."
    case .notLoggedIn: "Your session has expired. Please log in again."
    }
  }
}
