import Foundation
import StatecastTesting
import Synchronization
import Testing

@testable import Statecast
@testable import StatecastExamples

/// Undo and redo on the shared board, member by member, with the rule for a change
/// someone else touched since, and the history's bounds. Every state change is asserted,
/// the history's included.
@Suite("Board undo")
struct BoardUndoTests {
  typealias Step = Undoable<Board.Change>
  let ada = Viewer(id: "ada", name: "Ada")
  let ben = Viewer(id: "ben", name: "Ben")
  let carol = Viewer(id: "carol", name: "Carol")

  func makeStore(_ state: Board.State = Board.State()) -> TestStore<Board.State, Board.Action> {
    let next = Mutex(0)
    let sequential: @Sendable () -> String = {
      next.withLock { count in
        count += 1
        return "item-\(count)"
      }
    }
    return TestStore(
      initialState: state,
      reducer: Board.undoableReducer(dependencies: Board.Dependencies(makeID: sequential)))
  }

  func item(_ id: String, _ title: String, by author: Viewer, done: Bool = false, editedBy: Viewer? = nil)
    -> Board.Item
  {
    Board.Item(
      id: id, title: title, done: done, author: Board.Author(author),
      editedBy: editedBy.map(Board.Author.init))
  }

  /// The entry that undoes adding `id`, and the one that undoes taking it away again.
  func removal(_ id: String, _ title: String) -> Step {
    Step(.remove(id: id), touching: ["items/\(id)"], label: "“\(title)”")
  }
  func insertion(_ item: Board.Item, at index: Int) -> Step {
    Step(.insert(item, at: index), touching: ["items/\(item.id)"], label: "“\(item.title)”")
  }

  /// `member` types `title` and adds it as `id`; asserted.
  func add(_ title: String, as id: String, by member: Viewer, to store: TestStore<Board.State, Board.Action>)
    async
  {
    await store.send(.client(member, .draftChanged(text: title))) { $0.drafts[member.id] = title }
    await store.send(.client(member, .addDraft)) {
      $0.items.append(self.item(id, title, by: member))
      $0.drafts[member.id] = nil
      $0.history.record(self.removal(id, title), by: member)
    }
  }

  func view(_ store: TestStore<Board.State, Board.Action>, for member: Viewer) -> Board.ViewState {
    Board.viewState(store.state, for: member)
  }

  @Test func eachMemberUndoesTheirOwnItemAndKeepsTheOthers() async {
    let store = makeStore()
    await add("Milk", as: "item-1", by: ada, to: store)
    await add("Bread", as: "item-2", by: ben, to: store)
    #expect(view(store, for: ada).canUndo && !view(store, for: ada).canRedo)
    #expect(!view(store, for: carol).canUndo)

    // Ada's undo takes back her item, not Ben's later one.
    await store.send(.client(ada, .undo)) {
      $0.items = [self.item("item-2", "Bread", by: self.ben)]
      _ = $0.history.takeUndo(for: "ada")
      $0.history.recordUndone(self.insertion(self.item("item-1", "Milk", by: self.ada), at: 0), by: self.ada)
    }
    #expect(!view(store, for: ada).canUndo && view(store, for: ada).canRedo)
    // Ben's undo takes back his.
    await store.send(.client(ben, .undo)) {
      $0.items = []
      _ = $0.history.takeUndo(for: "ben")
      $0.history.recordUndone(self.insertion(self.item("item-2", "Bread", by: self.ben), at: 0), by: self.ben)
    }
    // Redo brings each back, at the place it was taken from, with its id and author
    // (Ben's went from the top of a one-item list).
    await store.send(.client(ada, .redo)) {
      $0.items = [self.item("item-1", "Milk", by: self.ada)]
      _ = $0.history.takeRedo(for: "ada")
      $0.history.recordRedone(self.removal("item-1", "Milk"), by: self.ada)
    }
    await store.send(.client(ben, .redo)) {
      $0.items.insert(self.item("item-2", "Bread", by: self.ben), at: 0)
      _ = $0.history.takeRedo(for: "ben")
      $0.history.recordRedone(self.removal("item-2", "Bread"), by: self.ben)
    }
    // Nothing left to redo: nothing happens.
    await store.send(.client(ada, .redo))
    // Carol has nothing to undo: nothing happens, and nobody else's change is touched.
    await store.send(.client(carol, .undo))
    await store.finish()
  }

  @Test func undoGoesBackOneChangeAtATimeAndANewChangeEmptiesRedo() async {
    let store = makeStore()
    await add("Milk", as: "item-1", by: ada, to: store)
    let titled = Step(
      .setTitle(id: "item-1", title: "Milk", editedBy: nil), touching: ["items/item-1/title"], label: "“Milk”"
    )
    await store.send(.client(ada, .edit(id: "item-1", title: "Oat milk"))) {
      $0.items[0].title = "Oat milk"
      $0.items[0].editedBy = Board.Author(self.ada)
      $0.history.record(titled, by: self.ada)
    }
    let ticked = Step(
      .setDone(id: "item-1", done: false), touching: ["items/item-1/done"], label: "“Oat milk”")
    await store.send(.client(ada, .setDone(id: "item-1", done: true))) {
      $0.items[0].done = true
      $0.history.record(ticked, by: self.ada)
    }
    // Newest first: the tick, then the edit.
    await store.send(.client(ada, .undo)) {
      $0.items[0].done = false
      _ = $0.history.takeUndo(for: "ada")
      $0.history.recordUndone(
        Step(.setDone(id: "item-1", done: true), touching: ["items/item-1/done"], label: "“Oat milk”"),
        by: self.ada)
    }
    await store.send(.client(ada, .undo)) {
      $0.items[0].title = "Milk"
      $0.items[0].editedBy = nil
      _ = $0.history.takeUndo(for: "ada")
      $0.history.recordUndone(
        Step(
          .setTitle(id: "item-1", title: "Oat milk", editedBy: Board.Author(self.ada)),
          touching: ["items/item-1/title"], label: "“Oat milk”"), by: self.ada)
    }
    #expect(store.state.history.members["ada"]?.redo.count == 2)
    // A new change of Ada's empties her redo list.
    let retick = Step(.setDone(id: "item-1", done: false), touching: ["items/item-1/done"], label: "“Milk”")
    await store.send(.client(ada, .setDone(id: "item-1", done: true))) {
      $0.items[0].done = true
      $0.history.record(retick, by: self.ada)
    }
    #expect(store.state.history.members["ada"]?.redo == [])
    #expect(!view(store, for: ada).canRedo)
    await store.finish()
  }

  @Test func aChangeSomeoneElseTouchedSinceIsSkippedAndTheMemberIsTold() async {
    let store = makeStore()
    await add("Milk", as: "item-1", by: ada, to: store)
    let adaTitle = Step(
      .setTitle(id: "item-1", title: "Milk", editedBy: nil), touching: ["items/item-1/title"], label: "“Milk”"
    )
    await store.send(.client(ada, .edit(id: "item-1", title: "Oat milk"))) {
      $0.items[0].title = "Oat milk"
      $0.items[0].editedBy = Board.Author(self.ada)
      $0.history.record(adaTitle, by: self.ada)
    }
    // Ben edits the same title after Ada: Ada's entries for the item are marked.
    let benTitle = Step(
      .setTitle(id: "item-1", title: "Oat milk", editedBy: Board.Author(ada)),
      touching: ["items/item-1/title"],
      label: "“Oat milk”")
    await store.send(.client(ben, .edit(id: "item-1", title: "Soy milk"))) {
      $0.items[0].title = "Soy milk"
      $0.items[0].editedBy = Board.Author(self.ben)
      $0.history.record(benTitle, by: self.ben)
    }
    #expect(store.state.history.members["ada"]?.undo.map(\.overwrittenBy) == ["Ben", "Ben"])
    // Ada's undo leaves Ben's title, drops her entry and says why.
    await store.send(.client(ada, .undo)) {
      let skipped = $0.history.takeUndo(for: "ada")!
      $0.history.skip(skipped, for: "ada", undoing: true)
    }
    #expect(view(store, for: ada).undoNotice == "Ben changed “Milk” since, so it was not undone.")
    #expect(view(store, for: ben).undoNotice == "")
    // Her add is under Ben's edit too (the item holds the title): skipped as well.
    await store.send(.client(ada, .undo)) {
      let skipped = $0.history.takeUndo(for: "ada")!
      $0.history.skip(skipped, for: "ada", undoing: true)
    }
    #expect(store.state.items.map(\.title) == ["Soy milk"])
    #expect(!view(store, for: ada).canUndo)
    // Ben's own undo is his to make.
    await store.send(.client(ben, .undo)) {
      $0.items[0].title = "Oat milk"
      $0.items[0].editedBy = Board.Author(self.ada)
      _ = $0.history.takeUndo(for: "ben")
      $0.history.recordUndone(
        Step(
          .setTitle(id: "item-1", title: "Soy milk", editedBy: Board.Author(self.ben)),
          touching: ["items/item-1/title"], label: "“Soy milk”"), by: self.ben)
    }
    await store.finish()
  }

  @Test func anotherFieldOfTheSameItemIsNoConflict() async {
    let store = makeStore(Board.State(items: [item("a", "A", by: ada)]))
    let adaTitle = Step(
      .setTitle(id: "a", title: "A", editedBy: nil), touching: ["items/a/title"], label: "“A”")
    await store.send(.client(ada, .edit(id: "a", title: "Apples"))) {
      $0.items[0].title = "Apples"
      $0.items[0].editedBy = Board.Author(self.ada)
      $0.history.record(adaTitle, by: self.ada)
    }
    await store.send(.client(ben, .setDone(id: "a", done: true))) {
      $0.items[0].done = true
      $0.history.record(
        Step(.setDone(id: "a", done: false), touching: ["items/a/done"], label: "“Apples”"), by: self.ben)
    }
    // Ada's title comes back; Ben's tick stays.
    await store.send(.client(ada, .undo)) {
      $0.items[0].title = "A"
      $0.items[0].editedBy = nil
      _ = $0.history.takeUndo(for: "ada")
      $0.history.recordUndone(
        Step(
          .setTitle(id: "a", title: "Apples", editedBy: Board.Author(self.ada)), touching: ["items/a/title"],
          label: "“Apples”"), by: self.ada)
    }
    #expect(store.state.items == [item("a", "A", by: ada, done: true)])
    await store.finish()
  }

  @Test func deleteWinsOverAnUndoAndAnUndoneDeleteComesBackInPlace() async {
    let store = makeStore(
      Board.State(items: [item("a", "A", by: ada), item("b", "B", by: ben), item("c", "C", by: ada)]))
    await store.send(.client(ada, .setDone(id: "a", done: true))) {
      $0.items[0].done = true
      $0.history.record(
        Step(.setDone(id: "a", done: false), touching: ["items/a/done"], label: "“A”"), by: self.ada)
    }
    // Ben deletes the item Ada ticked: her undo of the tick is skipped.
    await store.send(.client(ben, .delete(id: "a"))) {
      $0.items.removeFirst()
      $0.history.record(self.insertion(self.item("a", "A", by: self.ada, done: true), at: 0), by: self.ben)
    }
    await store.send(.client(ada, .undo)) {
      let skipped = $0.history.takeUndo(for: "ada")!
      $0.history.skip(skipped, for: "ada", undoing: true)
    }
    #expect(view(store, for: ada).undoNotice == "Ben changed “A” since, so it was not undone.")
    // Ben's undo of his delete puts the item back first, as it was, with its author.
    await store.send(.client(ben, .undo)) {
      $0.items.insert(self.item("a", "A", by: self.ada, done: true), at: 0)
      _ = $0.history.takeUndo(for: "ben")
      $0.history.recordUndone(self.removal("a", "A"), by: self.ben)
    }
    // And a move is undone to where the item was.
    await store.send(.client(ada, .move(id: "c", toIndex: 0))) {
      $0.items = [
        self.item("c", "C", by: self.ada), self.item("a", "A", by: self.ada, done: true),
        self.item("b", "B", by: self.ben),
      ]
      $0.history.record(
        Step(.move(id: "c", toIndex: 2), touching: ["items/c/position"], label: "“C”"), by: self.ada)
    }
    await store.send(.client(ada, .undo)) {
      $0.items = [
        self.item("a", "A", by: self.ada, done: true), self.item("b", "B", by: self.ben),
        self.item("c", "C", by: self.ada),
      ]
      _ = $0.history.takeUndo(for: "ada")
      $0.history.recordUndone(
        Step(.move(id: "c", toIndex: 0), touching: ["items/c/position"], label: "“C”"), by: self.ada)
    }
    await store.finish()
  }

  @Test func concurrentMembersInterleaveWithoutTouchingEachOther() async {
    let store = makeStore()
    await add("One", as: "item-1", by: ada, to: store)
    await add("Two", as: "item-2", by: ben, to: store)
    await add("Three", as: "item-3", by: ada, to: store)
    await add("Four", as: "item-4", by: carol, to: store)
    await store.send(.client(ada, .undo)) {
      $0.items.remove(at: 2)
      _ = $0.history.takeUndo(for: "ada")
      $0.history.recordUndone(self.insertion(self.item("item-3", "Three", by: self.ada), at: 2), by: self.ada)
    }
    await store.send(.client(ada, .undo)) {
      $0.items.remove(at: 0)
      _ = $0.history.takeUndo(for: "ada")
      $0.history.recordUndone(self.insertion(self.item("item-1", "One", by: self.ada), at: 0), by: self.ada)
    }
    #expect(store.state.items.map(\.title) == ["Two", "Four"])
    // Redo puts back the last one undone, "One", at its place.
    await store.send(.client(ada, .redo)) {
      $0.items.insert(self.item("item-1", "One", by: self.ada), at: 0)
      _ = $0.history.takeRedo(for: "ada")
      $0.history.recordRedone(self.removal("item-1", "One"), by: self.ada)
    }
    #expect(store.state.items.map(\.title) == ["One", "Two", "Four"])
    // "Three" went back to position 2, of a list now one shorter than it was.
    await store.send(.client(ada, .redo)) {
      $0.items.insert(self.item("item-3", "Three", by: self.ada), at: 2)
      _ = $0.history.takeRedo(for: "ada")
      $0.history.recordRedone(self.removal("item-3", "Three"), by: self.ada)
    }
    #expect(store.state.items.map(\.title) == ["One", "Two", "Three", "Four"])
    await store.finish()
  }

  @Test func historyIsBoundedPerMemberAndInMembers() async {
    var state = Board.State()
    state.history = UndoHistory(depth: 2, memberLimit: 2)
    let store = makeStore(state)
    await add("One", as: "item-1", by: ada, to: store)
    await add("Two", as: "item-2", by: ada, to: store)
    await add("Three", as: "item-3", by: ada, to: store)
    #expect(store.state.history.members["ada"]?.undo.map(\.label) == ["“Two”", "“Three”"])
    await add("Four", as: "item-4", by: ben, to: store)
    await add("Five", as: "item-5", by: ada, to: store)
    // A third member: the idlest (Ben) is forgotten.
    await add("Six", as: "item-6", by: carol, to: store)
    #expect(Set(store.state.history.members.keys) == ["ada", "carol"])
    #expect(!view(store, for: ben).canUndo)
    // Ada can go back twice, no further.
    await store.send(.client(ada, .undo)) {
      $0.items.remove(at: 4)
      _ = $0.history.takeUndo(for: "ada")
      $0.history.recordUndone(self.insertion(self.item("item-5", "Five", by: self.ada), at: 4), by: self.ada)
    }
    await store.send(.client(ada, .undo)) {
      $0.items.remove(at: 2)
      _ = $0.history.takeUndo(for: "ada")
      $0.history.recordUndone(self.insertion(self.item("item-3", "Three", by: self.ada), at: 2), by: self.ada)
    }
    await store.send(.client(ada, .undo))
    #expect(store.state.items.map(\.title) == ["One", "Two", "Four", "Six"])
    await store.finish()
  }

  @Test func historySurvivesBeingStoredAndAnOldBoardDecodesWithAnEmptyOne() async throws {
    let store = makeStore()
    await add("Milk", as: "item-1", by: ada, to: store)
    let stored = try JSONEncoder().encode(store.state)
    let restored = try JSONDecoder().decode(Board.State.self, from: stored)
    #expect(restored == store.state && restored.history.canUndo("ada"))

    let old = Data(#"{"items":[],"drafts":{"ada":"x"}}"#.utf8)
    let decoded = try JSONDecoder().decode(Board.State.self, from: old)
    #expect(decoded == Board.State(drafts: ["ada": "x"]))
    await store.finish()
  }
}
