import Foundation
import Statecast
import StatecastJSON
import StatecastStorage
import Testing

@Suite(.timeLimit(.minutes(2))) struct GroupCommitTests {
  /// 100 rooms append at once: the writer gathers what arrives while a transaction is
  /// in flight, so there are far fewer transactions than entries, and every room
  /// still restores to its own store's state.
  @Test func concurrentAppendsShareTransactionsAndEachRoomRestores() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let storage = try SQLiteStorage(directory: directory.url)
    var stores: [(String, Store<Board, BoardAction>)] = []
    for index in 0..<100 {
      let journal = try await RoomJournal.open(room: "room/\(index)", in: storage, initialState: Board())
      stores.append(
        ("room/\(index)", Store(initialState: Board(), reducer: boardReducer, commit: journal.commit)))
    }
    let before = storage.counters
    try await withThrowingDiscardingTaskGroup { group in
      for (_, store) in stores {
        group.addTask {
          for index in 0..<10 { try await store.send(.added("card \(index)")).committed() }
        }
      }
    }
    let counters = storage.counters
    let entries = counters.entries - before.entries
    let commits = counters.commits - before.commits
    #expect(entries == 1_000)
    #expect(commits < entries / 4)
    for (room, store) in stores {
      let stored = try #require(try await storage.loadRoom(room))
      #expect(try JSONValueDecoder().decode(Board.self, from: stored.state) == (await store.state))
      #expect(stored.revision == 10)
    }
  }

  /// Actions sent to one store while its commit is in flight are committed together.
  @Test func actionsOfOneStoreArrivingDuringACommitShareTheNextOne() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let storage = try SQLiteStorage(directory: directory.url)
    let journal = try await RoomJournal.open(room: "r", in: storage, initialState: Board())
    let store = Store(initialState: Board(), reducer: boardReducer, commit: journal.commit)
    var tasks: [StoreTask] = []
    for index in 0..<200 { tasks.append(await store.send(.added("card \(index)"))) }
    for task in tasks { try await task.committed() }
    #expect(journal.revision < 200)
    #expect(journal.revision >= 1)
    let stored = try #require(try await storage.loadRoom("r"))
    #expect(try JSONValueDecoder().decode(Board.self, from: stored.state).cards.count == 200)
  }
}
