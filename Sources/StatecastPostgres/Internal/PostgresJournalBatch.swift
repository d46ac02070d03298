import Logging
import PostgresNIO
import StatecastJSON
import StatecastStorage

/// How a node writes one batch of the group commit (``GroupCommit``, shared with the
/// SQLite engine): one transaction for every entry in it, one WAL flush.
///
/// Each entry is checked inside the transaction: its room must be exactly one
/// revision behind (the room's row is locked, so no other node's append interleaves)
/// and this node must hold an unexpired lease on it (the lease row is share-locked, so
/// another node cannot take it over before this transaction ends). An entry that fails
/// either check gets its own conflict and writes nothing, without failing the others.
/// The entry's idempotency keys are written in the same transaction; keys older than
/// ``JournalEntry/keptKeyRevisions`` are dropped every 64 revisions.
struct PostgresJournalBatch: Sendable {
  let node: String
  let client: PostgresClient
  let snapshotInterval: Int64
  let logger: Logger

  /// Writes `entries` in one transaction; one outcome per entry (`nil`: written).
  func write(_ entries: [JournalEntry]) async throws -> [StorageError?] {
    // Only the wait for a connection has a deadline: a transaction that has begun is
    // awaited to its end, so a batch reported as failed was never written.
    let logger = self.logger
    return try await withConnection(of: client) { connection in
      // A transaction that does not finish in time (the server went away without the
      // connection noticing) is cut off by closing its connection, which makes
      // PostgreSQL roll it back: the batch is reported failed and the store's state
      // goes back, rather than every later action waiting behind it.
      try await withDeadline(transactionDeadline, onTimeout: { try? await connection.close() }) {
        try await connection.withTransaction(logger: logger) { connection in
          var outcomes: [StorageError?] = []
          for entry in entries { outcomes.append(try await self.write(entry, on: connection)) }
          return outcomes
        }
      }
    }
  }

  private func write(_ entry: JournalEntry, on connection: PostgresConnection) async throws -> StorageError? {
    let rows = try await connection.query(
      """
      SELECT r.key, r.revision, r.snapshot_revision, l.node IS NOT NULL
      FROM statecast_rooms r
      LEFT JOIN LATERAL (
        SELECT node FROM statecast_leases
        WHERE room = r.id AND node = \(node) AND expires_at > clock_timestamp() FOR SHARE
      ) l ON true
      WHERE r.id = \(entry.room) FOR UPDATE OF r
      """,
      logger: logger
    )
    var found: (key: Int64, revision: Int64, snapshotRevision: Int64, leased: Bool)?
    for try await row in rows.decode((Int64, Int64, Int64, Bool).self) { found = row }
    guard let found, found.revision == entry.revision - 1, found.leased else {
      return .revisionConflict(room: entry.room, expected: entry.revision, found: found?.revision)
    }
    if entry.revision - found.snapshotRevision >= snapshotInterval {
      let snapshot = String(decoding: entry.state.serialized(), as: UTF8.self)
      try await connection.query(
        """
        WITH room AS (
          UPDATE statecast_rooms SET revision = \(entry.revision), snapshot_revision = \(entry.revision),
            snapshot = \(snapshot), last_used = now()
          WHERE id = \(entry.room)
        )
        DELETE FROM statecast_room_journal WHERE room_key = \(found.key)
        """,
        logger: logger
      )
    } else {
      let patch = String(decoding: entry.patch.serialized(), as: UTF8.self)
      try await connection.query(
        """
        WITH room AS (
          UPDATE statecast_rooms SET revision = \(entry.revision), last_used = now() WHERE id = \(entry.room)
        )
        INSERT INTO statecast_room_journal (room_key, revision, patch) VALUES (\(found.key), \(entry.revision), \(patch))
        """,
        logger: logger
      )
    }
    if !entry.idempotencyKeys.isEmpty {
      try await connection.query(
        """
        INSERT INTO statecast_applied_keys (room_key, key, revision)
        SELECT \(found.key), key, \(entry.revision) FROM unnest(\(entry.idempotencyKeys)::text[]) AS key
        ON CONFLICT (room_key, key) DO UPDATE SET revision = excluded.revision
        """,
        logger: logger
      )
    }
    if entry.revision % 64 == 0 {
      try await connection.query(
        """
        DELETE FROM statecast_applied_keys
        WHERE room_key = \(found.key) AND revision <= \(entry.revision - JournalEntry.keptKeyRevisions)
        """,
        logger: logger
      )
    }
    return nil
  }
}
