import Foundation
import Statecast
import StatecastTesting
import Testing
import TodoFeature

/// The list's rules, exhaustively, without a server.
@Suite struct TodosTests {
  let ada = Viewer(id: "ada", name: "Ada")
  let ben = Viewer(id: "ben", name: "Ben")

  @Test func newTodosAreTrimmedAndAnEmptyOneIsIgnored() async {
    let store = TestStore(initialState: Todos.State(), reducer: Todos.reducer())
    await store.send(.client(ada, .newTodoEntered(title: "  buy milk "))) {
      $0.todos = [Todos.Todo(id: "t1", title: "buy milk")]
      $0.nextID = 2
    }
    await store.send(.client(ada, .newTodoEntered(title: "   ")))
  }

  @Test func editingTrimsAndAnEmptyEditDestroys() async {
    let store = TestStore(
      initialState: Todos.State(
        todos: [.init(id: "t1", title: "a"), .init(id: "t2", title: "b")], nextID: 3),
      reducer: Todos.reducer())
    await store.send(.client(ada, .todoEdited(id: "t1", title: " c "))) { $0.todos[0].title = "c" }
    await store.send(.client(ada, .todoEdited(id: "t2", title: "  "))) { $0.todos.removeLast() }
  }

  @Test func toggleAllAndClearCompleted() async {
    let store = TestStore(
      initialState: Todos.State(
        todos: [.init(id: "t1", title: "a"), .init(id: "t2", title: "b")], nextID: 3),
      reducer: Todos.reducer())
    await store.send(.client(ada, .allToggled(completed: true))) {
      $0.todos[0].completed = true
      $0.todos[1].completed = true
    }
    await store.send(.client(ada, .todoToggled(id: "t2", completed: false))) { $0.todos[1].completed = false }
    await store.send(.client(ada, .completedCleared)) { $0.todos = [.init(id: "t2", title: "b")] }
    await store.send(.client(ada, .todoDestroyed(id: "t2"))) { $0.todos = [] }
  }

  @Test func eachTabListsWhatItsRouteAsksFor() async {
    let store = TestStore(
      initialState: Todos.State(
        todos: [.init(id: "t1", title: "a", completed: true), .init(id: "t2", title: "b")], nextID: 3),
      reducer: Todos.reducer())
    await store.send(.client(ada, .routeChanged(hash: "#/active"))) { $0.filters["ada"] = .active }
    await store.send(.client(ben, .routeChanged(hash: "#/completed"))) { $0.filters["ben"] = .completed }
    #expect(Todos.viewState(store.state, for: ada).todos.map(\.id) == ["t2"])
    #expect(Todos.viewState(store.state, for: ben).todos.map(\.id) == ["t1"])
    let all = Todos.viewState(store.state)
    #expect(all.todos.count == 2)
    #expect(all.activeCount == 1)
    #expect(all.itemsLeft == "item left")
    #expect(!all.allCompleted)
  }

  @Test func routesAreNotStored() throws {
    var state = Todos.State(todos: [.init(id: "t1", title: "a")], nextID: 2)
    state.filters["ada"] = .completed
    let stored = try JSONDecoder().decode(Todos.State.self, from: JSONEncoder().encode(state))
    #expect(stored == Todos.State(todos: [.init(id: "t1", title: "a")], nextID: 2))
  }
}
