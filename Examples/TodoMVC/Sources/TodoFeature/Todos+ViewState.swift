import Statecast

extension Todos {
  /// What a tab shows: the todos its route lists, and the footer's counts.
  public struct ViewState: Encodable, Equatable, Sendable {
    public var todos: [Todo]
    public var filter: Filter
    public var totalCount: Int
    public var activeCount: Int
    public var completedCount: Int
    /// "item left" or "items left", after the count.
    public var itemsLeft: String
    public var allCompleted: Bool
  }

  public static func viewState(_ state: State) -> ViewState {
    viewState(state, filter: .all)
  }

  /// Each tab sees its own route's todos.
  public static var viewDependsOnViewer: Bool { true }

  public static func viewState(_ state: State, for viewer: Viewer) -> ViewState {
    viewState(state, filter: state.filters[viewer.id] ?? .all)
  }

  static func viewState(_ state: State, filter: Filter) -> ViewState {
    let active = state.todos.filter { !$0.completed }.count
    let listed =
      switch filter {
      case .all: state.todos
      case .active: state.todos.filter { !$0.completed }
      case .completed: state.todos.filter(\.completed)
      }
    return ViewState(
      todos: listed, filter: filter, totalCount: state.todos.count, activeCount: active,
      completedCount: state.todos.count - active, itemsLeft: active == 1 ? "item left" : "items left",
      allCompleted: !state.todos.isEmpty && active == 0)
  }
}
