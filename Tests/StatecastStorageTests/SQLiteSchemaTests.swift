import Foundation
import GRDB
import StatecastJSON
import Testing

@testable import StatecastStorage

/// The SQLite schema: the journal keyed by a small integer, and a file of the first
/// schema brought up to date with its rooms intact.
@Suite(.timeLimit(.minutes(1))) struct SQLiteSchemaTests {
  @Test func theJournalHoldsARoomsKeyNotItsName() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let storage = try SQLiteStorage(directory: directory.url)
    let name = "board/" + String(repeating: "n", count: 194)
    _ = try await storage.createRoom(name, state: ["n": 0])
    for revision in Int64(1)...5 {
      try await storage.append(
        JournalEntry(
          room: name, revision: revision,
          patch: JSONPatch([.replace(path: JSONPointer(tokens: ["n"]), value: .int(revision))]),
          state: ["n": .int(revision)]))
    }
    let (columns, mentions) = try await DatabaseQueue(path: directory.databasePath).read { db in
      (
        try Row.fetchAll(db, sql: "PRAGMA table_info(journal)").map { $0["name"] as String },
        try Int.fetchOne(db, sql: "SELECT count(*) FROM journal WHERE instr(CAST(patch AS TEXT), 'nnnn') > 0")
          ?? 0
      )
    }
    #expect(columns == ["roomKey", "revision", "patch"])
    #expect(mentions == 0)
    #expect(try await storage.loadRoom(name)?.state == ["n": 5])
  }

  @Test func aFileOfTheFirstSchemaKeepsItsRooms() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    do {
      let queue = try DatabaseQueue(path: directory.databasePath)
      var first = DatabaseMigrator()
      SQLiteSchema.registerVersion1(&first)
      try first.migrate(queue)
      try await queue.write { db in
        try db.execute(
          sql: """
            INSERT INTO room (id, revision, snapshotRevision, snapshot, lastUsed)
              VALUES ('board/1', 2, 0, CAST('{"n":0}' AS BLOB), 0), ('board/2', 0, 0, CAST('{"n":7}' AS BLOB), 0);
            INSERT INTO journal (room, revision, patch) VALUES
              ('board/1', 1, CAST('[{"op":"replace","path":"/n","value":1}]' AS BLOB)),
              ('board/1', 2, CAST('[{"op":"replace","path":"/n","value":2}]' AS BLOB));
            """)
      }
    }
    let storage = try SQLiteStorage(directory: directory.url)
    let restored = try #require(try await storage.loadRoom("board/1"))
    #expect(restored.state == ["n": 2] && restored.revision == 2)
    #expect(try await storage.loadRoom("board/2")?.state == ["n": 7])
    try await storage.append(
      JournalEntry(
        room: "board/1", revision: 3,
        patch: JSONPatch([.replace(path: JSONPointer(tokens: ["n"]), value: 3)]),
        state: ["n": 3]))
    #expect(try await storage.loadRoom("board/1")?.state == ["n": 3])
  }
}
