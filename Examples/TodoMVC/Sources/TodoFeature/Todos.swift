import Statecast

/// TodoMVC's list: the todos of one browser, kept by the server in a durable room so
/// that they survive a reload and a restart.
///
/// A page joins `todos/{browser}` (an id its browser keeps), so each browser has its
/// own list; every tab of that browser shares it live. The route (`#/`, `#/active`,
/// `#/completed`) is each tab's own: the view is made per viewer.
public enum Todos: DurableFeature {
  public struct Todo: Equatable, Codable, Sendable, Identifiable {
    public var id: String
    public var title: String
    public var completed: Bool

    public init(id: String, title: String, completed: Bool = false) {
      self.id = id
      self.title = title
      self.completed = completed
    }
  }

  /// Which todos a tab lists, from its address's fragment.
  public enum Filter: String, Codable, Sendable {
    case all, active, completed

    /// `#/active` and `#/completed` filter; anything else lists all.
    public init(hash: String) {
      switch hash {
      case "#/active": self = .active
      case "#/completed": self = .completed
      default: self = .all
      }
    }
  }

  public struct State: Equatable, Codable, Sendable {
    public var todos: [Todo] = []
    /// The number in the next todo's id.
    public var nextID = 1
    /// Each tab's route, by viewer id. Not stored: a route belongs to an open tab.
    public var filters: [String: Filter] = [:]

    enum CodingKeys: String, CodingKey { case todos, nextID }

    public init(todos: [Todo] = [], nextID: Int = 1) {
      self.todos = todos
      self.nextID = nextID
    }
  }

  /// What a page can send, named after what the person did.
  public enum ClientAction: Equatable, Decodable, Sendable {
    /// Enter in the new-todo field.
    case newTodoEntered(title: String)
    /// A todo's checkbox.
    case todoToggled(id: String, completed: Bool)
    /// The "mark all as complete" checkbox.
    case allToggled(completed: Bool)
    /// An edit saved (Enter or leaving the field); an empty title destroys the todo.
    case todoEdited(id: String, title: String)
    /// A todo's destroy button.
    case todoDestroyed(id: String)
    /// "Clear completed".
    case completedCleared
    /// The tab's address changed to `hash` (or the page opened there).
    case routeChanged(hash: String)
  }

  public enum Action: Equatable, Sendable {
    case client(Viewer, ClientAction)
  }

  public static var initialState: State { State() }

  public static func embed(_ action: ClientAction, from viewer: Viewer) -> Action {
    .client(viewer, action)
  }

  public static func makeStore(
    dependencies: Void, join: Join, state: State, commit: (@Sendable (Commit<State>) async throws -> Void)?
  ) -> Store<State, Action> {
    Store(initialState: state, reducer: reducer(), commit: commit)
  }
}
