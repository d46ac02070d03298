import Statecast

/// A feature whose view differs per viewer: everyone sees how many notes there are,
/// each viewer sees only their own draft, and every note names its author.
enum Notes: Feature {
  struct State: Sendable {
    var notes: [Note] = []
    var drafts: [String: String] = [:]
  }

  struct Note: Codable, Sendable, Equatable {
    var text: String
    var author: String
  }

  enum Action: Sendable {
    case client(Viewer, ClientAction)
  }

  enum ClientAction: Codable, Sendable {
    case draft(text: String)
    case post
  }

  struct ViewState: Encodable, Sendable {
    var notes: [Note]
    var myDraft: String
  }

  static func embed(_ action: ClientAction) -> Action { .client(.anonymous, action) }
  static func embed(_ action: ClientAction, from viewer: Viewer) -> Action { .client(viewer, action) }
  static var viewDependsOnViewer: Bool { true }

  static func viewState(_ state: State) -> ViewState {
    ViewState(notes: state.notes, myDraft: "")
  }

  static func viewState(_ state: State, for viewer: Viewer) -> ViewState {
    ViewState(notes: state.notes, myDraft: state.drafts[viewer.id] ?? "")
  }

  static func makeStore(dependencies: Void, join: Join) -> Store<State, Action> {
    Store(
      initialState: State(),
      reducer: Reducer { state, action in
        switch action {
        case .client(let viewer, .draft(let text)):
          state.drafts[viewer.id] = text
        case .client(let viewer, .post):
          guard let text = state.drafts.removeValue(forKey: viewer.id), !text.isEmpty else { return .none }
          state.notes.append(Note(text: text, author: viewer.name))
        }
        return .none
      }
    )
  }
}
