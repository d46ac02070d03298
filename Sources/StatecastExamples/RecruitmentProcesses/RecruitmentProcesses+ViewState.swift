extension RecruitmentProcesses {
  /// What a browser sees of the list (see ``RecruitmentProcesses`` for the JSON).
  public struct ViewState: Encodable, Equatable, Sendable {
    public var status: String
    public var isLoading: Bool
    public var canLoad: Bool
    public var canRetry: Bool
    public var errorMessage: String?
    public var processes: [Process]
    public var emptyMessage: String?
  }

  /// Projects the state onto what the page shows: queries over the sum type, so the
  /// page never inspects its shape.
  public static func viewState(_ state: State) -> ViewState {
    switch state {
    case .idle:
      ViewState(status: "idle", isLoading: false, canLoad: true, canRetry: false, processes: [])
    case .loading:
      ViewState(status: "loading", isLoading: true, canLoad: false, canRetry: false, processes: [])
    case .loaded(let processes):
      ViewState(
        status: "loaded", isLoading: false, canLoad: false, canRetry: false, processes: processes,
        emptyMessage: processes.isEmpty ? "You have no recruitment processes yet." : nil)
    case .error(let message):
      ViewState(
        status: "error", isLoading: false, canLoad: false, canRetry: true, errorMessage: message,
        processes: [])
    }
  }
}
