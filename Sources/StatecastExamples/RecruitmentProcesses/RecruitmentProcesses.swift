public import Statecast

/// The list of a candidate's recruitment processes: Jobandtalent's "separating logic
/// from effects" example.
///
/// What it shows: the state is a sum type (idle, loading, loaded, error), so that no
/// illegal combination (a list *and* an error) can exist; `State.handle(event:)` decides
/// the next state and returns the effect to run as an inert value
/// (``EffectValue/loadProcesses``, ``EffectValue/clearSession``); an `EffectHandler`
/// with dependencies performs it; and an event source (the session's events, owned by
/// the store's lifetime) feeds the log-out from outside, which resets the state.
///
/// ## View (JSON)
/// ```json
/// {"status": "loaded",              // "idle" | "loading" | "loaded" | "error"
///  "isLoading": false, "canLoad": false, "canRetry": false,
///  "errorMessage": "…",             // absent unless status is "error"
///  "processes": [{"id": "p1", "company": "…", "position": "…", "stage": "…"}],
///  "emptyMessage": "…"}             // absent unless loaded with no processes
/// ```
///
/// ## Client actions
/// `{"load":{}}` (from idle), `{"retry":{}}` (from error), `{"expireSession":{}}` (asks
/// the session service to expire the session, as a server would; its log-out event
/// then comes back through the event source).
///
/// The live service fails the first load of each store, so the page shows the error
/// and the retry; later loads succeed.
public enum RecruitmentProcesses: Feature {
  /// Where the list stands; exactly one of these at a time.
  public enum State: Equatable, Sendable {
    case idle
    case loading
    case loaded([Process])
    case error(message: String)
  }

  /// Everything that can happen to the list (the source's events).
  public enum Action: Equatable, Sendable {
    /// Something the browser asked for.
    case client(ClientAction)
    /// The processes arrived.
    case processesLoaded([Process])
    /// Loading them failed.
    case processesFailedToLoad(message: String)
    /// The session ended (from the session's event source).
    case loggedOut
  }

  /// What a browser may send, decoded from e.g. `{"retry":{}}`.
  public enum ClientAction: Codable, Equatable, Sendable {
    case load
    case retry
    case expireSession
  }

  /// The effects `handle(event:)` asks for, as values: comparable in tests, performed
  /// by ``effectHandler(dependencies:)``.
  public enum EffectValue: Equatable, Sendable {
    case loadProcesses
    case expireSession
    case clearSession
  }

  /// One recruitment process of the candidate (nested, so that it never clashes with
  /// Foundation's `Process`).
  public struct Process: Equatable, Sendable, Encodable, Identifiable {
    public var id: String
    public var company: String
    public var position: String
    public var stage: String

    public init(id: String, company: String, position: String, stage: String) {
      self.id = id
      self.company = company
      self.position = position
      self.stage = stage
    }
  }
}

extension RecruitmentProcesses {
  /// Browser actions enter the store as `.client`, beside the actions only the server sends.
  public static func embed(_ action: ClientAction) -> Action { .client(action) }
}
