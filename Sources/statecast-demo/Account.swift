import Foundation
import Statecast
import StatecastServer

/// The demo's sign-in: a visitor picks a display name; the store signs it into a cookie
/// value and hands it to the browser through a ``CookieHandoff`` ticket, which the page
/// posts to get an `HttpOnly` cookie. From the next connection on, the server's
/// authenticator reads the cookie and the visitor is that viewer in every room. No
/// passwords: the name is who you say you are, but nobody can change it or pose as
/// your id without the server's secret.
///
/// View: `{"name": "Ada", "isGuest": false, "ticket": "…"}`; `ticket` is there only
/// right after `signIn`, and only in this tab's view. The signed value itself never is:
/// no script of the page, nor of any other page of the host, can read it.
enum Account: Feature {
  typealias Dependencies = Issuer
  typealias Action = ClientAction

  struct State: Sendable, Equatable {
    var viewer: Viewer
    var ticket: String?
  }

  enum ClientAction: Codable, Sendable {
    case signIn(name: String)
  }

  struct ViewState: Encodable, Sendable, Equatable {
    var name: String
    var isGuest: Bool
    var ticket: String?
  }

  /// How the store issues a signed-in viewer's cookie: signs it, and makes the ticket
  /// that sets it.
  struct Issuer: Sendable {
    var cookies: ViewerCookie
    var handoff: CookieHandoff
    /// Whether the server speaks TLS: the cookie is then `Secure` and `__Host-` named.
    var secure: Bool

    func ticket(for viewer: Viewer) -> String {
      handoff.ticket(
        name: ViewerCookie.name(secure: secure), value: cookies.value(for: viewer), maxAge: cookies.lifetime,
        secure: secure)
    }
  }

  /// The longest display name, in characters.
  static let maxNameLength = 40

  static func embed(_ action: ClientAction) -> ClientAction { action }

  static func viewState(_ state: State) -> ViewState {
    ViewState(name: state.viewer.name, isGuest: !state.viewer.isAuthenticated, ticket: state.ticket)
  }

  /// The store starts as whoever joined: a guest, or the viewer of the socket's cookie.
  static func makeStore(dependencies issuer: Issuer, join: Join) -> Store<State, ClientAction> {
    makeStore(viewer: join.viewer, issuer: issuer)
  }

  static func makeStore(viewer: Viewer, issuer: Issuer) -> Store<State, ClientAction> {
    Store(
      initialState: State(viewer: viewer),
      reducer: Reducer { state, action in
        switch action {
        case .signIn(let name):
          // Without characters that disguise a name (a right-to-left override, a
          // zero-width space): others see it in presence and as an author.
          let visible = DisguisingCharacters.removed(from: name)
          let trimmed = String(visible.trimmingCharacters(in: .whitespacesAndNewlines).prefix(maxNameLength))
          guard !trimmed.isEmpty else { return .none }
          // The same person keeps their id when they change their name.
          let id = state.viewer.isAuthenticated ? state.viewer.id : "v-" + String(state.viewer.id.suffix(16))
          state.viewer = Viewer(id: id, name: trimmed)
          state.ticket = issuer.ticket(for: state.viewer)
        }
        return .none
      })
  }
}
