import Foundation
import Statecast
import StatecastJSON
import StatecastStorage
import Testing

@Suite(.timeLimit(.minutes(1))) struct StorageFailureTests {
  /// A write the database refuses: the send fails, the store stays at its committed
  /// state, no observer hears of the change, and nothing is stored.
  @Test func aReadOnlyDatabaseFailsTheAppendAndLeavesTheStateUnchanged() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let writable = try SQLiteStorage(directory: directory.url)
    let journal = try await RoomJournal.open(room: "r", in: writable, initialState: Board())
    let store = Store(initialState: Board(), reducer: boardReducer, commit: journal.commit)
    try await store.send(.added("stored")).committed()
    let committed = await store.state

    var options = SQLiteStorage.Options()
    options.readOnly = true
    let readOnly = try SQLiteStorage(directory: directory.url, options: options)
    let readOnlyJournal = try await RoomJournal.open(room: "r", in: readOnly, initialState: Board())
    #expect(readOnlyJournal.restoredState == committed)
    let readOnlyStore = Store(
      initialState: readOnlyJournal.restoredState, reducer: boardReducer, commit: readOnlyJournal.commit
    )
    let observed = Recorder<Board>()
    let observation = await readOnlyStore.observe { observed.record($0) }

    let task = await readOnlyStore.send(.added("refused"))
    do {
      try await task.committed()
      Issue.record("a read-only database should refuse the append")
    } catch .failed(let error) {
      guard case StorageError.databaseFailed(let reason) = error else {
        Issue.record("unexpected error \(error)")
        return
      }
      #expect(reason.lowercased().contains("readonly") || reason.lowercased().contains("read-only"))
    } catch {
      Issue.record("unexpected error \(error)")
    }
    #expect(await readOnlyStore.state == committed)
    #expect(observed.values.isEmpty)
    #expect(readOnlyJournal.revision == 1)
    #expect(try await writable.loadRoom("r")?.revision == 1)

    // The journal is back where it was: a later change to a writable journal of the
    // same room still applies cleanly.
    try await store.send(.added("after")).committed()
    let restored = try #require(try await writable.loadRoom("r"))
    #expect(
      try JSONValueDecoder().decode(Board.self, from: restored.state).cards.map(\.text) == [
        "stored", "after",
      ])
    observation.cancel()
  }

  @Test func aFileThatIsNotADatabaseFailsAtOpenWithAClearError() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let random = SeededRandom(seed: 42)
    let garbage = Data((0..<8192).map { _ in UInt8(truncatingIfNeeded: random.next()) })
    try garbage.write(to: URL(filePath: directory.databasePath))
    do {
      _ = try SQLiteStorage(directory: directory.url)
      Issue.record("opening garbage should throw")
    } catch StorageError.cannotOpen(let path, let reason) {
      #expect(path == directory.databasePath)
      #expect(reason.contains("not a database"))
    }
  }

  @Test func aDatabaseOfAnotherApplicationIsRefusedAtOpen() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    var options = SQLiteStorage.Options()
    options.readOnly = true
    // A fresh read-only file has no schema: it is not a Statecast database.
    _ = FileManager.default.createFile(atPath: directory.databasePath, contents: Data())
    #expect(throws: StorageError.self) { try SQLiteStorage(directory: directory.url, options: options) }
  }

  @Test func aDirectoryThatCannotBeCreatedFailsAtOpen() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let file = directory.url.appending(path: "a-file")
    _ = FileManager.default.createFile(atPath: file.path, contents: Data("x".utf8))
    #expect(throws: StorageError.self) { try SQLiteStorage(directory: file.appending(path: "data")) }
  }
}
