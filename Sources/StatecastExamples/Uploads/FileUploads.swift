public import Statecast

/// Demo: files uploaded with progress, resumed after a dropped connection, and listed as
/// the server received them (name, size and the SHA-256 the server computed). The
/// server receives the bytes; the store only hears of finished files, through
/// ``fileUploaded(_:)``. Page: `/uploads.html`.
public enum FileUploads: UploadingFeature {
  public struct State: Equatable, Sendable {
    public var files: [UploadedFile] = []
    public init() {}
  }

  public enum Action: Equatable, Sendable {
    case client(ClientAction)
    case fileReceived(UploadedFile)
  }

  public enum ClientAction: Codable, Equatable, Sendable {
    case clearList
  }

  public struct ViewState: Encodable, Equatable, Sendable {
    public struct File: Encodable, Equatable, Sendable {
      public var id: String
      public var name: String
      public var size: Int
      public var sizeText: String
      public var sha256: String
    }

    public var files: [File]
    public var limits: String
  }

  /// 25 MB per file, 10 files, 60 MB per tab.
  public static let uploadLimits = UploadLimits(maxFileSize: 25 << 20, maxFiles: 10, sessionQuota: 60 << 20)

  public static func fileUploaded(_ file: UploadedFile) -> Action { .fileReceived(file) }

  public static func embed(_ action: ClientAction) -> Action { .client(action) }

  public static func reducer() -> Reducer<State, Action> {
    Reducer { state, action in
      switch action {
      case .fileReceived(let file):
        state.files.append(file)
        return .none
      case .client(.clearList):
        state.files = []
        return .none
      }
    }
  }

  public static func viewState(_ state: State) -> ViewState {
    ViewState(
      files: state.files.map {
        ViewState.File(
          id: $0.id, name: $0.name, size: $0.size, sizeText: UploadLimits.describe($0.size), sha256: $0.sha256
        )
      },
      limits:
        "Files up to \(UploadLimits.describe(uploadLimits.maxFileSize)), at most \(uploadLimits.maxFiles), "
        + "\(UploadLimits.describe(uploadLimits.sessionQuota)) in all.")
  }

  public static func makeStore(dependencies: Void, join: Join) -> Store<State, Action> {
    Store(initialState: State(), reducer: reducer())
  }
}
