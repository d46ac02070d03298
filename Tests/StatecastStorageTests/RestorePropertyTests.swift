import Foundation
import Statecast
import StatecastJSON
import StatecastStorage
import Testing

@Suite(.timeLimit(.minutes(2))) struct RestorePropertyTests {
  /// Random actions (seeded) on a durable store, sent one by one and in concurrent
  /// bursts; at random points the room is restored from storage and must equal the
  /// store's state; at the end a fresh storage on the same file restores it too.
  @Test(arguments: [1, 2, 3, 4] as [UInt64])
  func aRestoredRoomEqualsTheStoresState(seed: UInt64) async throws {
    let random = SeededRandom(seed: seed)
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    var options = SQLiteStorage.Options()
    options.snapshotInterval = 7
    let storage = try SQLiteStorage(directory: directory.url, options: options)
    let journal = try await RoomJournal.open(room: "board", in: storage, initialState: Board())
    let store = Store(initialState: journal.restoredState, reducer: boardReducer, commit: journal.commit)
    var restores = 0

    for _ in 0..<60 {
      let burst = random.next() % 3 == 0 ? Int(random.next() % 8) + 2 : 1
      var tasks: [StoreTask] = []
      for _ in 0..<burst {
        tasks.append(await store.send(.random(on: await store.state, using: random)))
      }
      for task in tasks { try await task.committed() }
      if random.next() % 5 == 0 {
        guard journal.revision > 0 else {
          // Nothing has changed yet: the room is not stored until its first change.
          #expect(try await storage.loadRoom("board") == nil)
          continue
        }
        let stored = try #require(try await storage.loadRoom("board"))
        #expect(try JSONValueDecoder().decode(Board.self, from: stored.state) == (await store.state))
        #expect(stored.revision == journal.revision)
        restores += 1
      }
    }
    #expect(restores > 0)
    let final = await store.state
    await store.close()

    let reopened = try SQLiteStorage(directory: directory.url, options: options)
    let restored = try await RoomJournal.open(room: "board", in: reopened, initialState: Board())
    #expect(restored.restoredState == final)
    #expect(restored.revision == journal.revision)
  }
}
