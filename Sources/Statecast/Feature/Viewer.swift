/// Who is looking at a store and acting on it: the identity a server's authenticator
/// gave a browser when it connected.
///
/// It reaches a route's access rules, the store factory and the reducer, so that a
/// shared store records who did what (`.client(viewer, action)`) and a rule can allow
/// an action for some viewers only. A browser that did not authenticate is a guest with
/// a generated id and name.
///
/// ```swift
/// case .client(let viewer, .addItem(let title)):
///   state.items.append(Item(title: title, author: viewer.name))
/// ```
public struct Viewer: Hashable, Codable, Sendable {
  /// Who this is, for access rules and authorship. An authenticated viewer's id is the
  /// one its authenticator gave: stable across reconnects and tabs, so two tabs of one
  /// signed-in person share it. A guest's id belongs to its session: a reconnect or a
  /// resume of that tab keeps it, but every new session (another tab, a tab opened
  /// after the session expired) is a new guest with a new id.
  public var id: String
  /// What other members see.
  public var name: String
  /// Whether the server authenticated this viewer (a guest was not).
  public var isAuthenticated: Bool

  /// A viewer, authenticated unless said otherwise.
  public init(id: String, name: String, isAuthenticated: Bool = true) {
    self.id = id
    self.name = name
    self.isAuthenticated = isAuthenticated
  }

  /// A viewer for code that has no browser behind it (tests, tools).
  public static let anonymous = Viewer(id: "anonymous", name: "Anonymous", isAuthenticated: false)
}
