import Foundation
import Statecast
import StatecastTesting
import Synchronization
import Testing

@testable import StatecastExamples

@Suite("Board")
struct BoardTests {
  typealias Item = Board.Item
  let ada = Viewer(id: "ada", name: "Ada")
  let ben = Viewer(id: "ben", name: "Ben")
  let carol = Viewer(id: "carol", name: "Carol")

  /// A board whose new items get the ids `item-1`, `item-2`, … in order.
  func makeStore(
    _ state: Board.State = Board.State(), makeID: (@Sendable () -> String)? = nil
  ) -> TestStore<Board.State, Board.Action> {
    let next = Mutex(0)
    let sequential: @Sendable () -> String = {
      next.withLock { count in
        count += 1
        return "item-\(count)"
      }
    }
    return TestStore(
      initialState: state,
      reducer: Board.reducer(dependencies: Board.Dependencies(makeID: makeID ?? sequential))
    )
  }

  func item(_ id: String, _ title: String, by author: Viewer, done: Bool = false, editedBy: Viewer? = nil)
    -> Item
  {
    Item(
      id: id, title: title, done: done, author: Board.Author(author),
      editedBy: editedBy.map(Board.Author.init))
  }

  /// Four items by Ada, `a` to `d`, titled after their ids.
  func fourItems() -> Board.State {
    Board.State(items: ["a", "b", "c", "d"].map { item($0, $0.uppercased(), by: ada) })
  }

  func json(_ view: Board.ViewState) throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    return String(decoding: try encoder.encode(view), as: UTF8.self)
  }

  // MARK: - Drafts and adding

  @Test func aMemberAddsTheirDraftAsAnItem() async {
    let store = makeStore()
    await store.send(.client(ada, .draftChanged(text: "  Buy milk "))) { $0.drafts = ["ada": "  Buy milk "] }
    #expect(Board.viewState(store.state, for: ada).canAdd)
    await store.send(.client(ada, .addDraft)) {
      $0.items = [self.item("item-1", "Buy milk", by: self.ada)]
      $0.drafts = [:]
    }
    // Nothing left to add.
    await store.send(.client(ada, .addDraft))
    // A blank draft is kept as typed but adds nothing.
    await store.send(.client(ada, .draftChanged(text: "  \n "))) { $0.drafts = ["ada": "  \n "] }
    #expect(!Board.viewState(store.state, for: ada).canAdd)
    await store.send(.client(ada, .addDraft))
    // Emptying the box forgets the draft.
    await store.send(.client(ada, .draftChanged(text: ""))) { $0.drafts = [:] }
    await store.send(.client(ada, .draftChanged(text: "")))
    await store.finish()
  }

  @Test func eachItemRecordsItsAuthor() async throws {
    let store = makeStore()
    await store.send(.client(ada, .draftChanged(text: "Plan the trip"))) {
      $0.drafts["ada"] = "Plan the trip"
    }
    await store.send(.client(ben, .draftChanged(text: "Book the train"))) {
      $0.drafts["ben"] = "Book the train"
    }
    // Adds are appended in the order they arrive, whoever started typing first.
    await store.send(.client(ben, .addDraft)) {
      $0.items = [self.item("item-1", "Book the train", by: self.ben)]
      $0.drafts = ["ada": "Plan the trip"]
    }
    await store.send(.client(ada, .addDraft)) {
      $0.items.append(self.item("item-2", "Plan the trip", by: self.ada))
      $0.drafts = [:]
    }

    let adaView = Board.viewState(store.state, for: ada)
    #expect(adaView.items.map(\.authorName) == ["Ben", "Ada"])
    #expect(adaView.items.map(\.mine) == [false, true])
    #expect(Board.viewState(store.state, for: ben).items.map(\.mine) == [true, false])
    #expect(Board.viewState(store.state).items.map(\.mine) == [false, false])

    // Editing someone else's item keeps its author and records the editor.
    await store.send(.client(ben, .edit(id: "item-2", title: "Plan the whole trip"))) {
      $0.items[1].title = "Plan the whole trip"
      $0.items[1].editedBy = Board.Author(self.ben)
    }
    let edited = Board.viewState(store.state, for: ada).items[1]
    #expect(edited.authorName == "Ada" && edited.mine && edited.editedByName == "Ben")
    #expect(Board.viewState(store.state, for: ada).items[0].editedByName == nil)
    await store.finish()
  }

  @Test func aDraftReachesOnlyItsOwnMember() async throws {
    let store = makeStore()
    await store.send(.client(ada, .draftChanged(text: "Surprise party for Ben"))) {
      $0.drafts["ada"] = "Surprise party for Ben"
    }
    await store.send(.client(ben, .draftChanged(text: "Gift ideas"))) { $0.drafts["ben"] = "Gift ideas" }

    let adaView = Board.viewState(store.state, for: ada)
    let benView = Board.viewState(store.state, for: ben)
    let carolView = Board.viewState(store.state, for: carol)
    let nobodysView = Board.viewState(store.state)
    #expect(adaView.myDraft == "Surprise party for Ben" && adaView.canAdd)
    #expect(benView.myDraft == "Gift ideas" && benView.canAdd)
    #expect(carolView.myDraft == "" && !carolView.canAdd)
    #expect(nobodysView.myDraft == "" && !nobodysView.canAdd && nobodysView.me == nil)
    // Not a word of a draft in anyone else's encoded view.
    #expect(try !json(benView).contains("Surprise"))
    #expect(try !json(adaView).contains("Gift"))
    for view in [carolView, nobodysView] {
      let encoded = try json(view)
      #expect(!encoded.contains("Surprise") && !encoded.contains("Gift"))
    }
    // A second tab of Ada (the same viewer id) shows the same draft.
    let adasOtherTab = Viewer(id: "ada", name: "Ada")
    #expect(Board.viewState(store.state, for: adasOtherTab).myDraft == "Surprise party for Ben")

    // Once added, the text is an item that everyone sees.
    await store.send(.client(ada, .addDraft)) {
      $0.items = [self.item("item-1", "Surprise party for Ben", by: self.ada)]
      $0.drafts = ["ben": "Gift ideas"]
    }
    #expect(try json(Board.viewState(store.state, for: ben)).contains("Surprise party for Ben"))
    #expect(try !json(Board.viewState(store.state, for: ada)).contains("Gift"))
    await store.finish()
  }

  @Test func theViewHasTheDocumentedShapeAndNoPresenceKey() throws {
    let state = Board.State(
      items: [item("item-1", "Buy milk", by: ada, done: true, editedBy: ben)], drafts: ["ada": "Call"])
    let view = Board.viewState(state, for: ada)
    let object = try JSONSerialization.jsonObject(with: JSONEncoder().encode(view)) as? [String: Any]
    #expect(
      Set(object?.keys.map { $0 } ?? []) == [
        "items", "myDraft", "canAdd", "isFull", "doneCount", "me", "canUndo", "canRedo", "undoNotice",
      ])
    #expect(
      try json(view)
        == #"{"canAdd":true,"canRedo":false,"canUndo":false,"doneCount":1,"isFull":false,"#
        + #""items":[{"authorName":"Ada","done":true,"#
        + #""editedByName":"Ben","id":"item-1","mine":true,"title":"Buy milk"}],"#
        + #""me":{"id":"ada","name":"Ada"},"myDraft":"Call","undoNotice":""}"#
    )
    let nobodys = try JSONSerialization.jsonObject(with: JSONEncoder().encode(Board.viewState(state)))
    #expect(
      Set((nobodys as? [String: Any])?.keys.map { $0 } ?? []) == [
        "items", "myDraft", "canAdd", "isFull", "doneCount", "canUndo", "canRedo", "undoNotice",
      ])
  }

  // MARK: - Editing, completing, moving, deleting

  @Test func editingReplacesTheTitle() async {
    let store = makeStore(Board.State(items: [item("item-1", "Milk", by: ada)]))
    await store.send(.client(ben, .edit(id: "item-1", title: "  Oat milk \n"))) {
      $0.items[0].title = "Oat milk"
      $0.items[0].editedBy = Board.Author(self.ben)
    }
    // The same title again, a blank title, or an unknown item: nothing changes.
    await store.send(.client(ada, .edit(id: "item-1", title: "Oat milk")))
    await store.send(.client(ada, .edit(id: "item-1", title: "   ")))
    await store.send(.client(ada, .edit(id: "item-9", title: "Bread")))
    await store.send(.client(ada, .edit(id: "item-1", title: "Whole milk"))) {
      $0.items[0].title = "Whole milk"
      $0.items[0].editedBy = Board.Author(self.ada)
    }
    await store.finish()
  }

  @Test func completionSetsTheDoneFlag() async {
    let store = makeStore(Board.State(items: [item("a", "A", by: ada), item("b", "B", by: ben)]))
    await store.send(.client(ben, .setDone(id: "a", done: true))) { $0.items[0].done = true }
    #expect(Board.viewState(store.state, for: ada).doneCount == 1)
    await store.send(.client(ada, .setDone(id: "a", done: true)))
    await store.send(.client(ada, .setDone(id: "b", done: true))) { $0.items[1].done = true }
    #expect(Board.viewState(store.state).doneCount == 2)
    await store.send(.client(ada, .setDone(id: "a", done: false))) { $0.items[0].done = false }
    await store.send(.client(ada, .setDone(id: "z", done: true)))
    await store.finish()
  }

  @Test func movesAreClampedToTheList() async {
    let store = makeStore(fourItems())
    func order(_ ids: String...) -> [Item] { ids.map { self.item($0, $0.uppercased(), by: self.ada) } }
    await store.send(.client(ada, .move(id: "c", toIndex: 0))) { $0.items = order("c", "a", "b", "d") }
    await store.send(.client(ada, .move(id: "c", toIndex: 0)))
    await store.send(.client(ada, .move(id: "a", toIndex: 99))) { $0.items = order("c", "b", "d", "a") }
    await store.send(.client(ada, .move(id: "d", toIndex: -5))) { $0.items = order("d", "c", "b", "a") }
    await store.send(.client(ada, .move(id: "x", toIndex: 0)))
    await store.send(.client(ben, .moveBy(id: "b", offset: -1))) { $0.items = order("d", "b", "c", "a") }
    await store.send(.client(ben, .moveBy(id: "b", offset: 1))) { $0.items = order("d", "c", "b", "a") }
    await store.send(.client(ben, .moveBy(id: "a", offset: 1)))
    await store.send(.client(ben, .moveBy(id: "d", offset: -1)))
    await store.send(.client(ben, .moveBy(id: "d", offset: 0)))
    await store.send(.client(ben, .moveBy(id: "d", offset: Int.min)))
    await store.send(.client(ben, .moveBy(id: "d", offset: Int.max))) { $0.items = order("c", "b", "a", "d") }
    await store.send(.client(ben, .moveBy(id: "d", offset: Int.min))) { $0.items = order("d", "c", "b", "a") }
    await store.send(.client(ben, .moveBy(id: "x", offset: 1)))
    await store.finish()
  }

  @Test func deletingRemovesTheItem() async {
    let store = makeStore(fourItems())
    await store.send(.client(ben, .delete(id: "b"))) { $0.items.remove(at: 1) }
    await store.send(.client(ada, .delete(id: "b")))
    await store.send(.client(ada, .delete(id: "d"))) { $0.items.remove(at: 2) }
    #expect(store.state.items.map(\.id) == ["a", "c"])
    await store.finish()
  }

  @Test func anIDAlreadyOnTheBoardIsNeverReused() async {
    let store = makeStore(Board.State(items: [item("item-1", "Milk", by: ada)]), makeID: { "item-1" })
    await store.send(.client(ben, .draftChanged(text: "Bread"))) { $0.drafts["ben"] = "Bread" }
    await store.send(.client(ben, .addDraft))
    await store.finish()
  }

  // MARK: - Concurrent edits (two members acting on the same view)

  @Test func ofTwoEditsOfOneTitleTheLaterWins() async {
    for adaFirst in [true, false] {
      let store = makeStore(Board.State(items: [item("m", "Milk", by: carol)]))
      let adas = Board.Action.client(ada, .edit(id: "m", title: "Milk, 2 l"))
      let bens = Board.Action.client(ben, .edit(id: "m", title: "Milk, 1 l"))
      await store.send(adaFirst ? adas : bens) {
        $0.items[0].title = adaFirst ? "Milk, 2 l" : "Milk, 1 l"
        $0.items[0].editedBy = Board.Author(adaFirst ? self.ada : self.ben)
      }
      await store.send(adaFirst ? bens : adas) {
        $0.items[0].title = adaFirst ? "Milk, 1 l" : "Milk, 2 l"
        $0.items[0].editedBy = Board.Author(adaFirst ? self.ben : self.ada)
      }
      await store.finish()
    }
  }

  @Test func anEditAndACompletionOfOneItemBothStay() async {
    let store = makeStore(Board.State(items: [item("m", "Milk", by: carol)]))
    await store.send(.client(ben, .setDone(id: "m", done: true))) { $0.items[0].done = true }
    await store.send(.client(ada, .edit(id: "m", title: "Oat milk"))) {
      $0.items[0].title = "Oat milk"
      $0.items[0].editedBy = Board.Author(self.ada)
    }
    #expect(store.state.items == [item("m", "Oat milk", by: carol, done: true, editedBy: ada)])
    await store.finish()
  }

  @Test func twoMembersTickingOneBoxAgree() async {
    let store = makeStore(Board.State(items: [item("m", "Milk", by: carol)]))
    await store.send(.client(ada, .setDone(id: "m", done: true))) { $0.items[0].done = true }
    await store.send(.client(ben, .setDone(id: "m", done: true)))
    #expect(store.state.items[0].done)
    await store.finish()
  }

  @Test func deleteWinsOverEveryConcurrentChange() async {
    // The delete arrives first: every later action on the item is ignored.
    let deletedFirst = makeStore(fourItems())
    await deletedFirst.send(.client(ben, .delete(id: "b"))) { $0.items.remove(at: 1) }
    for action in [
      Board.ClientAction.edit(id: "b", title: "Bee"), .setDone(id: "b", done: true),
      .move(id: "b", toIndex: 0), .moveBy(id: "b", offset: 1), .delete(id: "b"),
    ] {
      await deletedFirst.send(.client(ada, action))
    }
    await deletedFirst.finish()

    // The delete arrives last: it removes the item with the changes made to it.
    let deletedLast = makeStore(fourItems())
    await deletedLast.send(.client(ada, .edit(id: "b", title: "Bee"))) {
      $0.items[1].title = "Bee"
      $0.items[1].editedBy = Board.Author(self.ada)
    }
    await deletedLast.send(.client(ada, .setDone(id: "b", done: true))) { $0.items[1].done = true }
    await deletedLast.send(.client(ada, .move(id: "b", toIndex: 3))) {
      $0.items = [$0.items[0], $0.items[2], $0.items[3], $0.items[1]]
    }
    await deletedLast.send(.client(ben, .delete(id: "b"))) { $0.items.remove(at: 3) }
    #expect(deletedLast.state == deletedFirst.state)
    await deletedLast.finish()
  }

  @Test func concurrentMovesApplyInArrivalOrder() async {
    func order(_ ids: String...) -> [Item] { ids.map { self.item($0, $0.uppercased(), by: self.ada) } }
    // Both see a, b, c, d. Ada moves d to the top; Ben moves a to the end.
    let store = makeStore(fourItems())
    await store.send(.client(ada, .move(id: "d", toIndex: 0))) { $0.items = order("d", "a", "b", "c") }
    await store.send(.client(ben, .move(id: "a", toIndex: 3))) { $0.items = order("d", "b", "c", "a") }
    await store.finish()

    // Ben deletes c while Ada moves b to what was the last position: clamped to the end.
    let afterDelete = makeStore(fourItems())
    await afterDelete.send(.client(ben, .delete(id: "c"))) { $0.items = order("a", "b", "d") }
    await afterDelete.send(.client(ada, .move(id: "b", toIndex: 3))) { $0.items = order("a", "d", "b") }
    await afterDelete.finish()

    // Ben moves d to the top while Ada moves c one up: one up from where c is by then.
    let relative = makeStore(fourItems())
    await relative.send(.client(ben, .move(id: "d", toIndex: 0))) { $0.items = order("d", "a", "b", "c") }
    await relative.send(.client(ada, .moveBy(id: "c", offset: -1))) { $0.items = order("d", "a", "c", "b") }
    await relative.finish()
  }

  @Test func anEditOfAMovedItemFindsItByID() async {
    let store = makeStore(fourItems())
    await store.send(.client(ben, .move(id: "a", toIndex: 3))) {
      $0.items = [$0.items[1], $0.items[2], $0.items[3], $0.items[0]]
    }
    await store.send(.client(ada, .edit(id: "a", title: "Apples"))) {
      $0.items[3].title = "Apples"
      $0.items[3].editedBy = Board.Author(self.ada)
    }
    await store.send(.client(ada, .setDone(id: "a", done: true))) { $0.items[3].done = true }
    await store.finish()
  }

  // MARK: - Limits

  @Test func titlesAndDraftsAreCutToTheLimit() async {
    // 199 letters and a thumbs-up (two UTF-16 code units): the emoji does not fit whole.
    let long = String(repeating: "a", count: 199) + "👍" + "tail"
    let store = makeStore(Board.State(items: [item("m", "Milk", by: ada)]))
    await store.send(.client(ada, .draftChanged(text: long))) {
      $0.drafts["ada"] = String(repeating: "a", count: 199)
    }
    await store.send(.client(ada, .edit(id: "m", title: "  " + String(repeating: "x", count: 300)))) {
      $0.items[0].title = String(repeating: "x", count: Board.maxTitleLength)
      $0.items[0].editedBy = Board.Author(self.ada)
    }
    await store.send(.client(ada, .addDraft)) {
      $0.items.append(self.item("item-1", String(repeating: "a", count: 199), by: self.ada))
      $0.drafts = [:]
    }
    await store.finish()

    #expect(Board.clipped("ab👍", to: 3) == "ab")
    #expect(Board.clipped("ab👍", to: 4) == "ab👍")
    #expect(Board.clipped("cafe\u{301}!", to: 4) == "caf")
    #expect(Board.clipped("", to: 0) == "")
    #expect(Board.title(from: " \t ") == "")
  }

  @Test func aFullBoardAddsNothingAndKeepsTheDraft() async {
    let full = Board.State(items: (1...Board.maxItems).map { item("i\($0)", "Item \($0)", by: ben) })
    let store = makeStore(full)
    await store.send(.client(ada, .draftChanged(text: "One more"))) { $0.drafts["ada"] = "One more" }
    var view = Board.viewState(store.state, for: ada)
    #expect(view.isFull && !view.canAdd && view.myDraft == "One more")
    await store.send(.client(ada, .addDraft))
    await store.send(.client(ben, .delete(id: "i1"))) { $0.items.removeFirst() }
    view = Board.viewState(store.state, for: ada)
    #expect(!view.isFull && view.canAdd)
    await store.send(.client(ada, .addDraft)) {
      $0.items.append(self.item("item-1", "One more", by: self.ada))
      $0.drafts = [:]
    }
    #expect(store.state.items.count == Board.maxItems)
    await store.finish()
  }

  @Test func draftsAreKeptForAtMostMaxDraftsMembers() async {
    let drafts = Dictionary(uniqueKeysWithValues: (1...Board.maxDrafts).map { ("m\($0)", "draft \($0)") })
    let store = makeStore(Board.State(drafts: drafts))
    await store.send(.client(ada, .draftChanged(text: "Not kept")))
    #expect(Board.viewState(store.state, for: ada).myDraft == "")
    await store.send(.client(Viewer(id: "m1", name: "M1"), .draftChanged(text: "Changed"))) {
      $0.drafts["m1"] = "Changed"
    }
    await store.send(.client(Viewer(id: "m2", name: "M2"), .draftChanged(text: ""))) { $0.drafts["m2"] = nil }
    await store.send(.client(ada, .draftChanged(text: "Kept"))) { $0.drafts["ada"] = "Kept" }
    await store.finish()
  }

  // MARK: - Storage and wire

  @Test func theStateRoundTripsThroughCodable() throws {
    let state = Board.State(
      items: [
        item("3f2a", "Buy milk 🥛", by: ada, done: true, editedBy: ben),
        item("77b1", "Book \"the\" train\nat 9", by: ben),
        item("c0de", String(repeating: "é", count: Board.maxTitleLength), by: carol, editedBy: carol),
      ],
      drafts: ["ada": "Call the plumber", "ben": "  "]
    )
    let data = try JSONEncoder().encode(state)
    #expect(try JSONDecoder().decode(Board.State.self, from: data) == state)

    // The stored form: what a board saved today must still load.
    let stored = #"""
      {"items": [{"id": "3f2a", "title": "Buy milk", "done": true,
                  "author": {"id": "ada", "name": "Ada"}, "editedBy": {"id": "ben", "name": "Ben"}},
                 {"id": "77b1", "title": "Bread", "done": false, "author": {"id": "ben", "name": "Ben"}}],
       "drafts": {"ada": "Call"}}
      """#
    let decoded = try JSONDecoder().decode(Board.State.self, from: Data(stored.utf8))
    #expect(
      decoded
        == Board.State(
          items: [
            item("3f2a", "Buy milk", by: ada, done: true, editedBy: ben), item("77b1", "Bread", by: ben),
          ],
          drafts: ["ada": "Call"]
        )
    )
  }

  @Test func clientActionsDecodeFromTheWireForm() throws {
    func decode(_ json: String) throws -> Board.ClientAction {
      try JSONDecoder().decode(Board.ClientAction.self, from: Data(json.utf8))
    }
    #expect(try decode(#"{"draftChanged":{"text":"Call"}}"#) == .draftChanged(text: "Call"))
    #expect(try decode(#"{"addDraft":{}}"#) == .addDraft)
    #expect(try decode(#"{"edit":{"id":"a","title":"Milk"}}"#) == .edit(id: "a", title: "Milk"))
    #expect(try decode(#"{"setDone":{"id":"a","done":true}}"#) == .setDone(id: "a", done: true))
    #expect(try decode(#"{"move":{"id":"a","toIndex":0}}"#) == .move(id: "a", toIndex: 0))
    #expect(try decode(#"{"moveBy":{"id":"a","offset":-1}}"#) == .moveBy(id: "a", offset: -1))
    #expect(try decode(#"{"delete":{"id":"a"}}"#) == .delete(id: "a"))
    #expect(throws: DecodingError.self) { try decode(#"{"edit":{"id":"a"}}"#) }
    #expect(throws: DecodingError.self) { try decode(#"{"client":{}}"#) }
  }

  @Test func actionsEnterWithTheirSender() {
    #expect(Board.embed(.addDraft, from: ada) == .client(ada, .addDraft))
    #expect(Board.embed(.delete(id: "a")) == .client(.anonymous, .delete(id: "a")))
    #expect(Board.viewDependsOnViewer)
  }

  @Test func theStoreStartsWithAnEmptyBoard() async throws {
    let store = try await Board.makeStore(dependencies: .live(), join: Join())
    #expect(await store.state == Board.State())
    await store.send(.client(ada, .draftChanged(text: "Milk")))
    await store.send(.client(ada, .addDraft))
    let added = await firstState(of: store) { $0.items.count == 1 }
    #expect(added?.items.first?.title == "Milk")
    #expect(added?.items.first?.id.count == 36)
    #expect(added?.drafts == [:])
    await store.close()
  }
}
