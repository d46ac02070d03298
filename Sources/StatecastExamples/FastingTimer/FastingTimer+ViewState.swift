extension FastingTimer {
  /// What a browser sees of a fasting timer (see ``FastingTimer`` for the JSON).
  public struct ViewState: Encodable, Equatable, Sendable {
    public var phase: String
    public var elapsedSeconds: Int
    public var elapsed: String
    public var canStart: Bool
    public var canFinish: Bool
    public var canReset: Bool
    public var canShare: Bool
    public var sharingStatus: String
    public var sharingMessage: String?
    public var summary: String?
  }

  /// Projects the state onto what the page shows.
  public static func viewState(_ state: State) -> ViewState {
    let phase: String
    let seconds: Int
    var summary: String?
    switch state.phase {
    case .notStarted:
      phase = "notStarted"
      seconds = 0
    case .fasting(let elapsed):
      phase = "fasting"
      seconds = elapsed
    case .finished(let total):
      phase = "finished"
      seconds = total
      summary = FastSummary(fastNumber: state.fastNumber, seconds: total).text
    }
    let sharingStatus: String
    var sharingMessage: String?
    switch state.sharingStatus {
    case .idle: sharingStatus = "idle"
    case .sharing: sharingStatus = "sharing"
    case .shared: sharingStatus = "shared"
    case .failed(let message):
      sharingStatus = "failed"
      sharingMessage = message
    }
    let isFinished = phase == "finished"
    return ViewState(
      phase: phase,
      elapsedSeconds: seconds,
      elapsed: clockText(seconds),
      canStart: phase != "fasting",
      canFinish: phase == "fasting",
      canReset: phase != "notStarted",
      canShare: isFinished && (sharingStatus == "idle" || sharingStatus == "failed"),
      sharingStatus: sharingStatus,
      sharingMessage: sharingMessage,
      summary: summary
    )
  }

  /// `H:MM:SS`, e.g. `0:00:07`, `16:00:00`.
  static func clockText(_ seconds: Int) -> String {
    let hours = seconds / 3600
    let minutes = seconds / 60 % 60
    let secs = seconds % 60
    return "\(hours):\(minutes < 10 ? "0" : "")\(minutes):\(secs < 10 ? "0" : "")\(secs)"
  }
}
