import Statecast

/// A shared view of one text that every action replaces: each patch is as large as the
/// text while the state does not grow, so a slow reader's catch-up snapshot stays
/// small however many patches it skipped.
enum Banner: Feature {
  struct State: Encodable, Equatable, Sendable {
    var text = ""
    var version = 0
  }

  enum ClientAction: Codable, Sendable {
    case show(text: String)
  }

  static func embed(_ action: ClientAction) -> ClientAction { action }

  static func viewState(_ state: State) -> State { state }

  static func makeStore(dependencies: Void, join: Join) -> Store<State, ClientAction> {
    Store(
      initialState: State(),
      reducer: Reducer { state, action in
        switch action {
        case .show(let text):
          state.text = text
          state.version += 1
        }
        return .none
      }
    )
  }
}
