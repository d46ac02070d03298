public import Statecast

/// A fasting timer: start, finish, reset and share a fast. The example of
/// swift-unidirectional-flow's "functional core, imperative shell".
///
/// What it shows: the functional core is a pure `(State, Action) -> State` reducer; all
/// side effects live in `Middleware`s, async functions of (state after the reducer,
/// action, dependencies) that may answer with one action. One middleware ticks the
/// running fast once a second on an injected `Clock`; another shares a finished fast
/// through an injected service and reports the outcome (idle, sharing, shared, failed).
/// The reducer decides *whether* something happens (it records a ``Request``), the
/// middleware only *performs* it, so a forged or doubled click can never start a
/// second timer or a second share.
///
/// ## View (JSON)
/// ```json
/// {"phase": "fasting",            // "notStarted" | "fasting" | "finished"
///  "elapsedSeconds": 3725, "elapsed": "1:02:05",
///  "canStart": false, "canFinish": true, "canReset": true, "canShare": false,
///  "sharingStatus": "idle",        // "idle" | "sharing" | "shared" | "failed"
///  "sharingMessage": "…",          // absent unless sharing failed
///  "summary": "You fasted for 1:02:05."}   // absent unless finished
/// ```
///
/// ## Client actions
/// `{"start":{}}`, `{"finish":{}}`, `{"reset":{}}`, `{"share":{}}`.
///
/// The live share service refuses an empty fast (finished before its first second),
/// so a person can see a failed share by pressing start, then finish at once.
public enum FastingTimer: Feature {
  /// The whole state of one fasting timer.
  public struct State: Equatable, Sendable {
    public var phase: Phase
    /// Counts the fasts started; tags ticks and share results so that late ones from
    /// an earlier fast are ignored.
    public var fastNumber: Int
    public var sharingStatus: SharingStatus
    /// What the action just reduced asks the middlewares to do. The reducer sets it
    /// for every action (`nil` when nothing is asked), so a middleware acts exactly
    /// once per accepted request.
    public var request: Request?

    public init(
      phase: Phase = .notStarted,
      fastNumber: Int = 0,
      sharingStatus: SharingStatus = .idle,
      request: Request? = nil
    ) {
      self.phase = phase
      self.fastNumber = fastNumber
      self.sharingStatus = sharingStatus
      self.request = request
    }
  }

  /// Where the fast stands.
  public enum Phase: Equatable, Sendable {
    case notStarted
    case fasting(elapsedSeconds: Int)
    case finished(totalSeconds: Int)
  }

  /// Where sharing the finished fast stands.
  public enum SharingStatus: Equatable, Sendable {
    case idle
    case sharing
    case shared
    case failed(message: String)
  }

  /// Work the reducer asks the middlewares to perform.
  public enum Request: Equatable, Sendable {
    /// Tick the given fast one second from now.
    case tick(fast: Int)
    /// Share this summary.
    case share(FastSummary)
  }

  /// Everything that can happen to a fasting timer.
  public enum Action: Equatable, Sendable {
    /// Something the browser asked for.
    case client(ClientAction)
    /// One second of the given fast went by.
    case timerTicked(fast: Int)
    /// The share service accepted the summary of the given fast.
    case shareSucceeded(fast: Int)
    /// The share service refused or failed.
    case shareFailed(fast: Int, message: String)
  }

  /// What a browser may send, decoded from e.g. `{"start":{}}`.
  public enum ClientAction: Codable, Equatable, Sendable {
    case start
    case finish
    case reset
    case share
  }
}

/// What is shared about a finished fast.
public struct FastSummary: Equatable, Sendable, Encodable {
  /// Which fast of its timer this was.
  public var fastNumber: Int
  /// How long it lasted.
  public var seconds: Int

  public init(fastNumber: Int, seconds: Int) {
    self.fastNumber = fastNumber
    self.seconds = seconds
  }

  /// "You fasted for 1:02:05."
  public var text: String { "You fasted for \(FastingTimer.clockText(seconds))." }
}

extension FastingTimer {
  /// Browser actions enter the store as `.client`, beside the actions only the server sends.
  public static func embed(_ action: ClientAction) -> Action { .client(action) }
}
