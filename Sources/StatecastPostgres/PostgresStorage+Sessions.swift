import Foundation
import PostgresNIO
import StatecastJSON
public import StatecastStorage

extension PostgresStorage {
  /// Saves the sessions in one statement, recording this node as the one that saved
  /// each last (see ``deleteSession(_:)``).
  public func saveSessions(_ sessions: [StoredSession]) async throws {
    guard !sessions.isEmpty else { return }
    // One row per id (the last save wins), as one INSERT cannot change a row twice.
    var rows: [String: String] = [:]
    for session in sessions {
      let record = try JSONValueEncoder().encode(
        StoredSessionRecord(viewer: session.viewer, topics: session.topics))
      rows[session.id] = String(decoding: record.serialized(), as: UTF8.self)
    }
    let ids = Array(rows.keys)
    let topics = ids.map { rows[$0]! }
    try await databaseAccess { [self] in
      try await client.query(
        """
        INSERT INTO statecast_sessions (id, node, saved_at, topics)
        SELECT id, \(node), now(), topics FROM unnest(\(ids)::text[], \(topics)::text[]) AS s (id, topics)
        ON CONFLICT (id) DO UPDATE SET node = EXCLUDED.node, saved_at = EXCLUDED.saved_at, topics = EXCLUDED.topics
        """,
        logger: logger
      )
    }
  }

  public func loadSession(_ id: String) async throws -> StoredSession? {
    let row: (Date, String)? = try await databaseAccess { [self] in
      let rows = try await client.query(
        "SELECT saved_at, topics FROM statecast_sessions WHERE id = \(id)", logger: logger)
      var found: (Date, String)?
      for try await row in rows.decode((Date, String).self) { found = row }
      return found
    }
    guard let (savedAt, topics) = row else { return nil }
    do {
      let record = try JSONValueDecoder().decode(
        StoredSessionRecord.self, from: JSON(storedData: Data(topics.utf8)))
      return StoredSession(id: id, viewer: record.viewer, topics: record.topics, savedAt: savedAt)
    } catch {
      throw StorageError.databaseFailed(reason: "session \(id) does not decode: \(error)")
    }
  }

  /// Deletes the session only if this node saved it last: when another node has
  /// resumed it (and saved it since), it is that node's now, and stays.
  public func deleteSession(_ id: String) async throws {
    try await databaseAccess { [self] in
      try await client.query(
        "DELETE FROM statecast_sessions WHERE id = \(id) AND node = \(node)", logger: logger)
    }
  }

  public func deleteSessions(unusedFor age: Duration) async throws -> Int {
    try await databaseAccess { [self] in
      let rows = try await client.query(
        """
        WITH deleted AS (
          DELETE FROM statecast_sessions WHERE saved_at < now() - make_interval(secs => \(age.seconds)) RETURNING id
        )
        SELECT count(*) FROM deleted
        """,
        logger: logger
      )
      var deleted = 0
      for try await count in rows.decode(Int.self) { deleted = count }
      return deleted
    }
  }
}
