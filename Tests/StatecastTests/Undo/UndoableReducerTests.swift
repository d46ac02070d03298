import Foundation
import StatecastTesting
import Testing

@testable import Statecast

/// The undo wrapper on a per-tab store: one member (the anonymous viewer), a title that
/// can be set, undone and redone, and an action the wrapper must leave alone.
@Suite("Undoable reducer")
struct UndoableReducerTests {
  struct State: Equatable, Sendable {
    var title = ""
    var views = 0
    var history = UndoHistory<String>(depth: 3)
  }

  enum Action: Equatable, Sendable {
    case setTitle(String)
    case viewed
    case undo
    case redo
    case restore(String)
  }

  static let base = Reducer<State, Action> { state, action in
    switch action {
    case .setTitle(let title), .restore(let title):
      // The feature's invariant holds for undo too: titles are trimmed.
      state.title = title.trimmingCharacters(in: .whitespaces)
    case .viewed:
      state.views += 1
    case .undo, .redo:
      break
    }
    return .none
  }

  static let reducer = Reducer.undoable(
    base,
    history: \State.history,
    command: { action in
      switch action {
      case .undo: .undo(.anonymous)
      case .redo: .redo(.anonymous)
      default: nil
      }
    },
    change: { action, before, after in
      guard before.title != after.title else { return nil }
      return (.anonymous, Undoable(before.title, touching: ["title"], label: "the title"))
    },
    action: { step, _ in .restore(step) }
  )

  func entry(_ title: String) -> Undoable<String> { Undoable(title, touching: ["title"], label: "the title") }

  @Test func aPerTabStoreUndoesAndRedoesThroughItsReducer() async {
    let store = TestStore(initialState: State(), reducer: Self.reducer)
    await store.send(.setTitle("Draft")) {
      $0.title = "Draft"
      $0.history.record(self.entry(""), by: .anonymous)
    }
    await store.send(.setTitle(" Final ")) {
      $0.title = "Final"
      $0.history.record(self.entry("Draft"), by: .anonymous)
    }
    // Not a change to undo: the wrapper records nothing.
    await store.send(.viewed) { $0.views = 1 }
    await store.send(.undo) {
      $0.title = "Draft"
      _ = $0.history.takeUndo(for: "anonymous")
      $0.history.recordUndone(self.entry("Final"), by: .anonymous)
    }
    await store.send(.redo) {
      $0.title = "Final"
      _ = $0.history.takeRedo(for: "anonymous")
      $0.history.recordRedone(self.entry("Draft"), by: .anonymous)
    }
    #expect(store.state.history.canUndo("anonymous") && !store.state.history.canRedo("anonymous"))
    await store.finish()
  }

  @Test func pathsOverlapWhenOneIsTheOtherOrBelowIt() {
    let item = Undoable("x", touching: ["items/a"], label: "")
    #expect(item.overlaps(["items/a"]))
    #expect(item.overlaps(["items/a/title"]))
    #expect(Undoable("x", touching: ["items/a/title"], label: "").overlaps(["items/a"]))
    #expect(!item.overlaps(["items/ab"]))
    #expect(!Undoable("x", touching: ["items/a/title"], label: "").overlaps(["items/a/done"]))
  }

  @Test func aHistoryKeepsItsBounds() {
    var history = UndoHistory<String>(depth: 2, memberLimit: 2)
    let ada = Viewer(id: "ada", name: "Ada")
    let ben = Viewer(id: "ben", name: "Ben")
    let carol = Viewer(id: "carol", name: "Carol")
    for title in ["1", "2", "3"] { history.record(entry(title), by: ada) }
    #expect(history.members["ada"]?.undo.map(\.step) == ["2", "3"])
    history.record(entry("b"), by: ben)
    history.record(entry("4"), by: ada)
    history.record(entry("c"), by: carol)
    #expect(Set(history.members.keys) == ["ada", "carol"])
    // Zero and negative bounds are raised to one.
    #expect(UndoHistory<String>(depth: 0, memberLimit: -1).depth == 1)
  }
}
