import Foundation
import GRDB
import StatecastJSON

/// Writes the appends of one group commit inside one transaction.
///
/// Each entry is checked against its room's stored revision first: an entry that does
/// not follow on (another writer, a deleted room) gets its own conflict and writes
/// nothing, without failing the others. When a room's journal has reached the
/// snapshot interval, the entry's whole state becomes the new snapshot and the
/// journal behind it is deleted, so a restore never replays more than the interval.
///
/// The entry's idempotency keys go in with it; keys older than
/// ``JournalEntry/keptKeyRevisions`` are dropped every 64 revisions.
///
/// Statements are prepared once per connection (`cachedStatement`): compiling the SQL
/// would otherwise cost more than running it, several times per entry.
enum JournalBatch {
  static func write(
    _ entries: [JournalEntry],
    in db: Database,
    snapshotInterval: Int64,
    now: Double
  ) throws -> [StorageError?] {
    try entries.map { entry in
      try write(entry, in: db, snapshotInterval: snapshotInterval, now: now)
    }
  }

  private static func write(
    _ entry: JournalEntry,
    in db: Database,
    snapshotInterval: Int64,
    now: Double
  ) throws -> StorageError? {
    let row = try Row.fetchOne(
      db.cachedStatement(sql: "SELECT key, revision, snapshotRevision FROM room WHERE id = ?"),
      arguments: [entry.room]
    )
    guard let row, let revision: Int64 = row["revision"], revision == entry.revision - 1 else {
      return .revisionConflict(room: entry.room, expected: entry.revision, found: row?["revision"])
    }
    let snapshotRevision: Int64 = row["snapshotRevision"]
    let key: Int64 = row["key"]
    if entry.revision - snapshotRevision >= snapshotInterval {
      try db.cachedStatement(
        sql: "UPDATE room SET revision = ?, snapshotRevision = ?, snapshot = ?, lastUsed = ? WHERE key = ?"
      ).execute(arguments: [entry.revision, entry.revision, entry.state.storedData, now, key])
      try db.cachedStatement(sql: "DELETE FROM journal WHERE roomKey = ?").execute(arguments: [key])
    } else {
      try db.cachedStatement(sql: "UPDATE room SET revision = ?, lastUsed = ? WHERE key = ?")
        .execute(arguments: [entry.revision, now, key])
      try db.cachedStatement(sql: "INSERT INTO journal (roomKey, revision, patch) VALUES (?, ?, ?)")
        .execute(arguments: [key, entry.revision, Data(entry.patch.serialized())])
    }
    for idempotencyKey in entry.idempotencyKeys {
      try db.cachedStatement(
        sql: "INSERT OR REPLACE INTO appliedKey (roomKey, key, revision) VALUES (?, ?, ?)"
      )
      .execute(arguments: [key, idempotencyKey, entry.revision])
    }
    if entry.revision % 64 == 0 {
      try db.cachedStatement(sql: "DELETE FROM appliedKey WHERE roomKey = ? AND revision <= ?")
        .execute(arguments: [key, entry.revision - JournalEntry.keptKeyRevisions])
    }
    return nil
  }
}
