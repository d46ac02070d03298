import GRDB

/// The SQLite schema, as GRDB migrations: each change to it is a new migration, so a
/// file written by an older version is brought up to date when it is opened, and a
/// file written by a newer version is refused rather than misread.
///
/// - `room`: one row per room: its revision, its latest snapshot (state JSON) and the
///   revision of that snapshot, and when it was last changed.
/// - `journal`: the RFC 6902 patch of each revision after the snapshot.
/// - `archivedSnapshot`: states replaced by a deliberate fresh start, kept.
/// - `session`: saved sessions, their topics as a JSON array.
enum SQLiteSchema {
  static var migrator: DatabaseMigrator {
    var migrator = DatabaseMigrator()
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
    return migrator
  }
}
