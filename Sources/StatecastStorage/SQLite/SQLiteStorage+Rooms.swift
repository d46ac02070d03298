import Foundation
import GRDB
public import StatecastJSON

extension SQLiteStorage {
  public func loadRoom(_ id: String) async throws -> StoredRoom? {
    let stored = try await access {
      try await database.read { db -> StoredRows? in
        guard let room = try Row.fetchOne(db, sql: "SELECT * FROM room WHERE id = ?", arguments: [id]) else {
          return nil
        }
        let snapshotRevision: Int64 = room["snapshotRevision"]
        let key: Int64 = room["key"]
        let journal = try Row.fetchAll(
          db, sql: "SELECT revision, patch FROM journal WHERE roomKey = ? AND revision > ? ORDER BY revision",
          arguments: [key, snapshotRevision]
        )
        let keys = try String.fetchAll(
          db, sql: "SELECT key FROM appliedKey WHERE roomKey = ? AND revision > ? ORDER BY revision",
          arguments: [key, (room["revision"] as Int64) - JournalEntry.keptKeyRevisions]
        )
        return StoredRows(
          revision: room["revision"], snapshotRevision: snapshotRevision, snapshot: room["snapshot"],
          lastUsed: room["lastUsed"], journal: journal.map { ($0["revision"], $0["patch"]) },
          appliedKeys: keys
        )
      }
    }
    return try stored.map { try $0.restore(id: id) }
  }

  public func createRoom(_ id: String, state: JSON) async throws -> StoredRoom {
    let time = currentTime
    let created = try await access {
      try await database.write { db -> Bool in
        try db.execute(
          sql: """
            INSERT INTO room (id, revision, snapshotRevision, snapshot, lastUsed) VALUES (?, 0, 0, ?, ?)
            ON CONFLICT (id) DO NOTHING
            """,
          arguments: [id, state.storedData, time]
        )
        return db.changesCount == 1
      }
    }
    if created {
      return StoredRoom(id: id, revision: 0, state: state, lastUsed: Date(timeIntervalSince1970: time))
    }
    guard let existing = try await loadRoom(id) else {
      throw StorageError.revisionConflict(room: id, expected: 0, found: nil)
    }
    return existing
  }

  public func replaceRoom(_ id: String, state: JSON) async throws -> StoredRoom {
    let time = currentTime
    let revision = try await access {
      try await database.write { db -> Int64 in
        guard
          let current = try Row.fetchOne(db, sql: "SELECT revision FROM room WHERE id = ?", arguments: [id])
        else {
          try db.execute(
            sql:
              "INSERT INTO room (id, revision, snapshotRevision, snapshot, lastUsed) VALUES (?, 0, 0, ?, ?)",
            arguments: [id, state.storedData, time]
          )
          return 0
        }
        // The replaced state stays readable: its snapshot and journal, as they were.
        let revision: Int64 = current["revision"]
        try db.execute(
          sql: """
            INSERT OR REPLACE INTO archivedSnapshot (room, revision, snapshot, archivedAt)
            SELECT id, revision, json_object('snapshot', json(CAST(snapshot AS TEXT)), 'snapshotRevision',
              snapshotRevision, 'journal', (SELECT json_group_array(json(CAST(patch AS TEXT))) FROM
              (SELECT patch FROM journal WHERE roomKey = (SELECT key FROM room WHERE id = ?1) ORDER BY revision))), ?2
            FROM room WHERE id = ?1
            """,
          arguments: [id, time]
        )
        try db.execute(
          sql: "DELETE FROM journal WHERE roomKey = (SELECT key FROM room WHERE id = ?)", arguments: [id])
        try db.execute(
          sql: "UPDATE room SET revision = ?, snapshotRevision = ?, snapshot = ?, lastUsed = ? WHERE id = ?",
          arguments: [revision + 1, revision + 1, state.storedData, time, id]
        )
        return revision + 1
      }
    }
    return StoredRoom(id: id, revision: revision, state: state, lastUsed: Date(timeIntervalSince1970: time))
  }

  public func markRoomsUsed(_ ids: [String]) async throws {
    guard !ids.isEmpty else { return }
    let time = currentTime
    try await access {
      try await database.write { db in
        for id in ids {
          try db.execute(sql: "UPDATE room SET lastUsed = ? WHERE id = ?", arguments: [time, id])
        }
      }
    }
  }

  public func deleteRooms(unusedFor age: Duration) async throws -> Int {
    let cutoff = currentTime - age.seconds
    return try await access {
      try await database.write { db in
        try db.execute(sql: "DELETE FROM room WHERE lastUsed < ?", arguments: [cutoff])
        let deleted = db.changesCount
        try db.execute(sql: "DELETE FROM archivedSnapshot WHERE room NOT IN (SELECT id FROM room)")
        return deleted
      }
    }
  }
}
