import Foundation
import PostgresNIO
public import StatecastJSON
public import StatecastStorage

extension PostgresStorage {
  public func loadRoom(_ id: String) async throws -> StoredRoom? {
    try await databaseAccess { [self] in
      // One statement, so the snapshot and the journal after it are of one moment.
      let rows = try await client.query(
        """
        SELECT r.revision, r.snapshot_revision, r.snapshot, r.last_used,
          COALESCE(array_agg(j.revision ORDER BY j.revision) FILTER (WHERE j.revision IS NOT NULL), '{}'),
          COALESCE(array_agg(j.patch ORDER BY j.revision) FILTER (WHERE j.revision IS NOT NULL), '{}'),
          ARRAY(
            SELECT k.key FROM statecast_applied_keys k
            WHERE k.room_key = r.key AND k.revision > r.revision - \(JournalEntry.keptKeyRevisions) ORDER BY k.revision
          )
        FROM statecast_rooms r
        LEFT JOIN statecast_room_journal j ON j.room_key = r.key AND j.revision > r.snapshot_revision
        WHERE r.id = \(id)
        GROUP BY r.id
        """,
        logger: logger
      )
      for try await (revision, snapshotRevision, snapshot, lastUsed, revisions, patches, keys) in rows.decode(
        (Int64, Int64, String, Date, [Int64], [String], [String]).self)
      {
        return try StoredRows(
          revision: revision, snapshotRevision: snapshotRevision, snapshot: Data(snapshot.utf8),
          lastUsed: lastUsed.timeIntervalSince1970,
          journal: zip(revisions, patches).map { ($0, Data($1.utf8)) }, appliedKeys: keys
        ).restore(id: id)
      }
      return nil
    }
  }

  public func createRoom(_ id: String, state: JSON) async throws -> StoredRoom {
    let snapshot = String(decoding: state.serialized(), as: UTF8.self)
    let created: Date? = try await databaseAccess { [self] in
      let rows = try await client.query(
        """
        INSERT INTO statecast_rooms (id, revision, snapshot_revision, snapshot, last_used)
        VALUES (\(id), 0, 0, \(snapshot), now())
        ON CONFLICT (id) DO NOTHING RETURNING last_used
        """,
        logger: logger
      )
      var created: Date?
      for try await lastUsed in rows.decode(Date.self) { created = lastUsed }
      return created
    }
    if let created { return StoredRoom(id: id, revision: 0, state: state, lastUsed: created) }
    guard let existing = try await loadRoom(id) else {
      throw StorageError.revisionConflict(room: id, expected: 0, found: nil)
    }
    return existing
  }

  public func replaceRoom(_ id: String, state: JSON) async throws -> StoredRoom {
    let snapshot = String(decoding: state.serialized(), as: UTF8.self)
    let (revision, lastUsed) = try await databaseAccess { [self] in
      try await client.withTransaction(logger: logger) { connection in
        try await connection.query(
          """
          INSERT INTO statecast_rooms (id, revision, snapshot_revision, snapshot, last_used)
          VALUES (\(id), -1, -1, '{}', now()) ON CONFLICT (id) DO NOTHING
          """,
          logger: logger
        )
        var current: Int64 = -1
        let rows = try await connection.query(
          "SELECT revision FROM statecast_rooms WHERE id = \(id) FOR UPDATE", logger: logger)
        for try await revision in rows.decode(Int64.self) { current = revision }
        // A room that existed keeps its replaced state readable: snapshot and journal, as they were.
        if current >= 0 {
          try await connection.query(
            """
            INSERT INTO statecast_archived_snapshots (room, revision, snapshot, archived_at)
            SELECT id, revision, json_build_object(
              'snapshot', snapshot::json, 'snapshotRevision', snapshot_revision,
              'journal', COALESCE(
                (SELECT json_agg(j.patch::json ORDER BY j.revision) FROM statecast_room_journal j
                  WHERE j.room_key = statecast_rooms.key), '[]'::json)
            )::text, now()
            FROM statecast_rooms WHERE id = \(id)
            ON CONFLICT (room, revision) DO UPDATE SET snapshot = EXCLUDED.snapshot, archived_at = EXCLUDED.archived_at
            """,
            logger: logger
          )
          try await connection.query(
            "DELETE FROM statecast_room_journal WHERE room_key = (SELECT key FROM statecast_rooms WHERE id = \(id))",
            logger: logger)
        }
        let revision = current + 1
        let updated = try await connection.query(
          """
          UPDATE statecast_rooms SET revision = \(revision), snapshot_revision = \(revision), snapshot = \(snapshot),
            last_used = now()
          WHERE id = \(id) RETURNING last_used
          """,
          logger: logger
        )
        var lastUsed = Date()
        for try await time in updated.decode(Date.self) { lastUsed = time }
        return (revision, lastUsed)
      }
    }
    return StoredRoom(id: id, revision: revision, state: state, lastUsed: lastUsed)
  }

  public func markRoomsUsed(_ ids: [String]) async throws {
    guard !ids.isEmpty else { return }
    try await databaseAccess { [self] in
      _ = try await client.query(
        "UPDATE statecast_rooms SET last_used = now() WHERE id = ANY(\(ids))", logger: logger)
    }
  }

  public func deleteRooms(unusedFor age: Duration) async throws -> Int {
    try await databaseAccess { [self] in
      try await client.withTransaction(logger: logger) { connection in
        let rows = try await connection.query(
          """
          WITH deleted AS (
            DELETE FROM statecast_rooms WHERE last_used < now() - make_interval(secs => \(age.seconds)) RETURNING id
          )
          SELECT count(*) FROM deleted
          """,
          logger: logger
        )
        var deleted = 0
        for try await count in rows.decode(Int.self) { deleted = count }
        try await connection.query(
          """
          DELETE FROM statecast_archived_snapshots a
          WHERE NOT EXISTS (SELECT 1 FROM statecast_rooms r WHERE r.id = a.room)
          """,
          logger: logger
        )
        return deleted
      }
    }
  }
}
