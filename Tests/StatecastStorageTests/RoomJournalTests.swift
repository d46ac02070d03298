import Foundation
import GRDB
import Statecast
import StatecastJSON
import Testing

@testable import StatecastStorage

@Suite(.timeLimit(.minutes(1))) struct RoomJournalTests {
  @Test func aNewRoomStartsAtRevisionZeroAndIsStoredAtItsFirstChange() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let storage = try SQLiteStorage(directory: directory.url)
    let journal = try await RoomJournal.open(room: "board/1", in: storage, initialState: Board(title: "New"))
    #expect(journal.restoredState == Board(title: "New"))
    #expect(journal.revision == 0)
    // Opening (a join) writes nothing; a commit that changes nothing neither.
    #expect(try await storage.loadRoom("board/1") == nil)
    let store = Store(initialState: journal.restoredState, reducer: boardReducer, commit: journal.commit)
    try await store.send(.viewed).committed()
    #expect(try await storage.loadRoom("board/1") == nil)
    try await store.send(.added("milk")).committed()
    let stored = try #require(try await storage.loadRoom("board/1"))
    #expect(stored.revision == 1)
    #expect(journal.revision == 1)
    #expect(stored.state == (try JSONValueEncoder().encode(await store.state)))
  }

  @Test func everyCommittedActionIsJournaledAndARestartRestoresItAndItsRevision() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    var storage = try SQLiteStorage(directory: directory.url)
    var journal = try await RoomJournal.open(room: "board/1", in: storage, initialState: Board())
    var store = Store(initialState: journal.restoredState, reducer: boardReducer, commit: journal.commit)
    for action in [BoardAction.added("milk"), .added("eggs"), .toggled(1), .viewed, .movedToTop(2)] {
      try await store.send(action).committed()
    }
    let expected = await store.state
    #expect(journal.revision == 4)  // `.viewed` changed nothing and wrote nothing
    #expect(storage.counters.entries == 4)
    await store.close()

    storage = try SQLiteStorage(directory: directory.url)
    journal = try await RoomJournal.open(room: "board/1", in: storage, initialState: Board())
    #expect(journal.restoredState == expected)
    #expect(journal.revision == 4)
    store = Store(initialState: journal.restoredState, reducer: boardReducer, commit: journal.commit)
    try await store.send(.added("bread")).committed()
    #expect(journal.revision == 5)
    #expect(try await storage.loadRoom("board/1")?.revision == 5)
  }

  @Test func aSnapshotEveryNEntriesTrimsTheJournalBehindIt() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    var options = SQLiteStorage.Options()
    options.snapshotInterval = 5
    let storage = try SQLiteStorage(directory: directory.url, options: options)
    let journal = try await RoomJournal.open(room: "r", in: storage, initialState: Board())
    let store = Store(initialState: journal.restoredState, reducer: boardReducer, commit: journal.commit)
    for index in 1...12 { try await store.send(.added("card \(index)")).committed() }

    let (snapshotRevision, journalRevisions) = try await DatabaseQueue(path: directory.databasePath).read {
      db in
      (
        try Int64.fetchOne(db, sql: "SELECT snapshotRevision FROM room WHERE id = 'r'"),
        try Int64.fetchAll(
          db,
          sql:
            "SELECT revision FROM journal WHERE roomKey = (SELECT key FROM room WHERE id = 'r') ORDER BY revision"
        )
      )
    }
    #expect(snapshotRevision == 10)
    #expect(journalRevisions == [11, 12])
    let restored = try #require(try await storage.loadRoom("r"))
    #expect(try JSONValueDecoder().decode(Board.self, from: restored.state) == (await store.state))
  }

  @Test func theDatabaseIsInWALModeAndSynchronousIsFullOnTheWriter() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let storage = try SQLiteStorage(directory: directory.url)
    let mode = try await DatabaseQueue(path: directory.databasePath).read { db in
      try String.fetchOne(db, sql: "PRAGMA journal_mode")
    }
    #expect(mode == "wal")
    // 2 is FULL: the WAL is synced at every commit, so an acknowledged one survives power loss.
    let synchronous = try await storage.database.write { db in try Int.fetchOne(db, sql: "PRAGMA synchronous")
    }
    #expect(synchronous == 2)
  }

  @Test func aStateThatNoLongerDecodesIsReportedByRoomAndNotOverwritten() async throws {
    struct BoardWithOwner: Codable, Sendable { var title: String; var owner: String }
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let storage = try SQLiteStorage(directory: directory.url)
    let journal = try await RoomJournal.open(room: "board/7", in: storage, initialState: Board())
    let store = Store(initialState: journal.restoredState, reducer: boardReducer, commit: journal.commit)
    try await store.send(.added("keep me")).committed()

    do {
      _ = try await RoomJournal.open(
        room: "board/7", in: storage, initialState: BoardWithOwner(title: "", owner: "")
      )
      Issue.record("opening with an incompatible State should throw")
    } catch StorageError.undecodableState(let room, let revision, _) {
      #expect(room == "board/7")
      #expect(revision == 1)
    }
    let again = try await RoomJournal.open(room: "board/7", in: storage, initialState: Board())
    #expect(again.restoredState.cards.map(\.text) == ["keep me"])

    // A deliberate fresh start continues the revisions and archives what it replaced.
    let fresh = try await RoomJournal.replacing(
      room: "board/7", in: storage, with: BoardWithOwner(title: "v2", owner: "ada")
    )
    #expect(fresh.revision == 2)
    let archived = try await DatabaseQueue(path: directory.databasePath).read { db in
      try String.fetchOne(
        db, sql: "SELECT CAST(snapshot AS TEXT) FROM archivedSnapshot WHERE room = 'board/7'")
    }
    #expect(archived?.contains("keep me") == true)
  }

  @Test func aFieldAddedWithADefaultDecodesAndLaterPatchesApplyToWhatIsStored() async throws {
    struct ColoredBoard: Codable, Equatable, Sendable {
      var title = "Board"
      var cards: [Board.Card] = []
      var nextID = 1
      var color = "blue"
      init() {}
      init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        title = try container.decode(String.self, forKey: .title)
        cards = try container.decode([Board.Card].self, forKey: .cards)
        nextID = try container.decode(Int.self, forKey: .nextID)
        color = try container.decodeIfPresent(String.self, forKey: .color) ?? "blue"
      }
    }
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let storage = try SQLiteStorage(directory: directory.url)
    _ = try await RoomJournal.open(room: "r", in: storage, initialState: Board(title: "old"))

    let journal = try await RoomJournal.open(room: "r", in: storage, initialState: ColoredBoard())
    #expect(journal.restoredState.color == "blue")
    var changed = journal.restoredState
    changed.color = "red"
    try await journal.commit(Commit(previous: journal.restoredState, state: changed, actionCount: 1))
    let reopened = try await RoomJournal.open(room: "r", in: storage, initialState: ColoredBoard())
    #expect(reopened.restoredState == changed)
  }

  /// Idempotency keys are journaled with their change, come back at the next open, and
  /// are dropped once older than the kept window.
  @Test func idempotencyKeysComeBackWithTheRoom() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let storage = try SQLiteStorage(directory: directory.url)
    let journal = try await RoomJournal.open(room: "r", in: storage, initialState: Board())
    try await journal.commit(
      Commit(previous: Board(), state: Board(title: "1"), actionCount: 1, idempotencyKeys: ["k1"]))
    try await journal.commit(
      Commit(
        previous: Board(title: "1"), state: Board(title: "2"), actionCount: 2, idempotencyKeys: ["k2", "k3"]))
    // A change of nothing is not journaled, and neither are its keys.
    try await journal.commit(
      Commit(previous: Board(title: "2"), state: Board(title: "2"), actionCount: 1, idempotencyKeys: ["k4"]))
    let reopened = try await RoomJournal.open(room: "r", in: storage, initialState: Board())
    #expect(reopened.restoredKeys == ["k1", "k2", "k3"])
    var previous = Board(title: "2")
    for revision in 3...(2 + JournalEntry.keptKeyRevisions + 64) {
      let next = Board(title: "\(revision)")
      try await reopened.commit(Commit(previous: previous, state: next, actionCount: 1))
      previous = next
    }
    #expect(try await storage.loadRoom("r")?.appliedKeys == [])
  }

  @Test func twoWritersOfOneRoomConflictInsteadOfOverwritingEachOther() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let storage = try SQLiteStorage(directory: directory.url)
    let first = try await RoomJournal.open(room: "r", in: storage, initialState: Board())
    let second = try await RoomJournal.open(room: "r", in: storage, initialState: Board())
    let next = Board(title: "first")
    try await first.commit(Commit(previous: Board(), state: next, actionCount: 1))
    do {
      try await second.commit(Commit(previous: Board(), state: Board(title: "second"), actionCount: 1))
      Issue.record("the second writer should conflict")
    } catch StorageError.revisionConflict(let room, let expected, let found) {
      #expect(room == "r")
      #expect(expected == 1)
      #expect(found == 1)
    }
    let stored = try #require(try await storage.loadRoom("r"))
    #expect(try JSONValueDecoder().decode(Board.self, from: stored.state) == next)
  }
}
