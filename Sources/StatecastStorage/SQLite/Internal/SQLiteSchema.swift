import GRDB

/// The SQLite schema, as GRDB migrations: each change to it is a new migration, so a
/// file written by an older version is brought up to date when it is opened, and a
/// file written by a newer version is refused rather than misread.
///
/// - `room`: one row per room: a small integer `key`, its name (`id`), its revision, its
///   latest snapshot (state JSON) and the revision of that snapshot, and when it was
///   last changed.
/// - `journal`: the RFC 6902 patch of each revision after the snapshot, under the
///   room's `key` (v2; v1 repeated the room's name in every row).
/// - `appliedKey`: the idempotency keys of the actions each room's latest changes
///   applied, with the revision that applied them (v3).
/// - `archivedSnapshot`: states replaced by a deliberate fresh start, kept.
/// - `session`: saved sessions, their topics as a JSON array.
enum SQLiteSchema {
  static var migrator: DatabaseMigrator {
    var migrator = DatabaseMigrator()
    registerVersion1(&migrator)
    // The journal keyed by a small integer: a room's name (up to 200 bytes) is stored
    // once, in `room`, not in every journal row.
    migrator.registerMigration("v2") { db in
      try db.execute(
        sql: """
          CREATE TABLE roomV2 (
            key INTEGER PRIMARY KEY,
            id TEXT NOT NULL UNIQUE,
            revision INTEGER NOT NULL,
            snapshotRevision INTEGER NOT NULL,
            snapshot BLOB NOT NULL,
            lastUsed DOUBLE NOT NULL
          );
          INSERT INTO roomV2 (id, revision, snapshotRevision, snapshot, lastUsed)
            SELECT id, revision, snapshotRevision, snapshot, lastUsed FROM room;
          CREATE TABLE journalV2 (
            roomKey INTEGER NOT NULL REFERENCES roomV2(key) ON DELETE CASCADE,
            revision INTEGER NOT NULL,
            patch BLOB NOT NULL,
            PRIMARY KEY (roomKey, revision)
          ) WITHOUT ROWID;
          INSERT INTO journalV2 (roomKey, revision, patch)
            SELECT roomV2.key, journal.revision, journal.patch FROM journal JOIN roomV2 ON roomV2.id = journal.room;
          DROP TABLE journal;
          DROP TABLE room;
          ALTER TABLE roomV2 RENAME TO room;
          ALTER TABLE journalV2 RENAME TO journal;
          CREATE INDEX room_lastUsed ON room(lastUsed);
          """
      )
    }
    // Idempotency keys, written in the same transaction as the change they applied.
    migrator.registerMigration("v3") { db in
      try db.execute(
        sql: """
          CREATE TABLE appliedKey (
            roomKey INTEGER NOT NULL REFERENCES room(key) ON DELETE CASCADE,
            key TEXT NOT NULL,
            revision INTEGER NOT NULL,
            PRIMARY KEY (roomKey, key)
          ) WITHOUT ROWID;
          CREATE INDEX appliedKey_revision ON appliedKey(roomKey, revision);
          """
      )
    }
    return migrator
  }

  /// The first schema, kept as it was so that a file written by it is brought up to date
  /// (and so that a test can write one).
  static func registerVersion1(_ migrator: inout DatabaseMigrator) {
    migrator.registerMigration("v1") { db in
      try db.execute(
        sql: """
          CREATE TABLE room (
            id TEXT PRIMARY KEY NOT NULL,
            revision INTEGER NOT NULL,
            snapshotRevision INTEGER NOT NULL,
            snapshot BLOB NOT NULL,
            lastUsed DOUBLE NOT NULL
          );
          CREATE INDEX room_lastUsed ON room(lastUsed);
          CREATE TABLE journal (
            room TEXT NOT NULL REFERENCES room(id) ON DELETE CASCADE,
            revision INTEGER NOT NULL,
            patch BLOB NOT NULL,
            PRIMARY KEY (room, revision)
          ) WITHOUT ROWID;
          CREATE TABLE archivedSnapshot (
            room TEXT NOT NULL,
            revision INTEGER NOT NULL,
            snapshot BLOB NOT NULL,
            archivedAt DOUBLE NOT NULL,
            PRIMARY KEY (room, revision)
          );
          CREATE TABLE session (
            id TEXT PRIMARY KEY NOT NULL,
            savedAt DOUBLE NOT NULL,
            topics BLOB NOT NULL
          );
          CREATE INDEX session_savedAt ON session(savedAt);
          """
      )
    }
  }
}
