import Foundation
import Statecast
import StatecastServer

/// The demo's sign-in: a visitor picks a display name and gets it back as a signed
/// cookie value, which the page stores; from the next connection on, the server's
/// authenticator reads the cookie and the visitor is that viewer in every room. No
/// passwords: the name is who you say you are, but nobody can change it or pose as
/// your id without the server's secret.
///
/// View: `{"name": "Ada", "isGuest": false, "cookie": "…"}`; `cookie` is there only
/// right after `signIn`, and only in this tab's view.
enum Account {
  struct State: Sendable, Equatable {
    var viewer: Viewer
    var cookie: String?
  }

  enum ClientAction: Codable, Sendable {
    case signIn(name: String)
  }

  struct ViewState: Encodable, Sendable, Equatable {
    var name: String
    var isGuest: Bool
    var cookie: String?
  }

  /// The longest display name, in characters.
  static let maxNameLength = 40

  static func viewState(_ state: State) -> ViewState {
    ViewState(name: state.viewer.name, isGuest: !state.viewer.isAuthenticated, cookie: state.cookie)
  }

  static func makeStore(viewer: Viewer, cookies: ViewerCookie) -> Store<State, ClientAction> {
    Store(
      initialState: State(viewer: viewer),
      reducer: Reducer { state, action in
        switch action {
        case .signIn(let name):
          let trimmed = String(name.trimmingCharacters(in: .whitespacesAndNewlines).prefix(maxNameLength))
          guard !trimmed.isEmpty else { return .none }
          // The same person keeps their id when they change their name.
          let id = state.viewer.isAuthenticated ? state.viewer.id : "v-" + String(state.viewer.id.suffix(16))
          state.viewer = Viewer(id: id, name: trimmed)
          state.cookie = cookies.value(for: state.viewer)
        }
        return .none
      })
  }
}
