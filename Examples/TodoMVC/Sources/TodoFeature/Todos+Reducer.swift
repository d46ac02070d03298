import Statecast

extension Todos {
  /// The list's rules, after TodoMVC's specification: titles are trimmed, an empty new
  /// title is ignored, an edit to an empty title destroys the todo.
  public static func reducer() -> Reducer<State, Action> {
    Reducer { state, action in
      guard case .client(let viewer, let action) = action else { return .none }
      switch action {
      case .newTodoEntered(let title):
        let title = title.trimmed
        guard !title.isEmpty else { return .none }
        state.todos.append(Todo(id: "t\(state.nextID)", title: title))
        state.nextID += 1
      case .todoToggled(let id, let completed):
        if let index = state.todos.firstIndex(where: { $0.id == id }) {
          state.todos[index].completed = completed
        }
      case .allToggled(let completed):
        for index in state.todos.indices { state.todos[index].completed = completed }
      case .todoEdited(let id, let title):
        let title = title.trimmed
        if title.isEmpty {
          state.todos.removeAll { $0.id == id }
        } else if let index = state.todos.firstIndex(where: { $0.id == id }) {
          state.todos[index].title = title
        }
      case .todoDestroyed(let id):
        state.todos.removeAll { $0.id == id }
      case .completedCleared:
        state.todos.removeAll(where: \.completed)
      case .routeChanged(let hash):
        state.filters[viewer.id] = Filter(hash: hash)
      }
      return .none
    }
  }
}

extension String {
  /// Without leading and trailing white space.
  fileprivate var trimmed: String {
    String(drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
  }
}
