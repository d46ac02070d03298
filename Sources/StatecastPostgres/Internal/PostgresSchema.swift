import Logging
import PostgresNIO

/// The tables, all prefixed `statecast_`, created if missing when a cluster starts.
///
/// Several processes may start at once against an empty database: `CREATE TABLE IF NOT
/// EXISTS` alone can still fail on a concurrent creation (a unique violation in the
/// catalogue), so creation runs under a transaction-scoped advisory lock.
///
/// - `statecast_rooms`: one row per room: its revision, its latest snapshot (state JSON
///   text) and that snapshot's revision, when it was last changed.
/// - `statecast_journal`: the RFC 6902 patch (JSON text) of each revision after the snapshot.
/// - `statecast_applied_keys`: the idempotency keys of the actions each room's latest
///   changes applied, with the revision that applied them.
/// - `statecast_archived_snapshots`: states replaced by a deliberate fresh start, kept.
/// - `statecast_sessions`: saved sessions, the node that saved each last.
/// - `statecast_leases`: which node owns which room until when (the database's clock).
/// - `statecast_nodes`: each node's heartbeat.
/// - `statecast_messages`: payloads too large for a notification, fetched by the receiver.
enum PostgresSchema {
  /// An arbitrary key of the advisory lock serialising schema creation.
  static let lockKey: Int64 = 0x5374_6174_6563_6173

  static let statements: [PostgresQuery] = [
    """
    CREATE TABLE IF NOT EXISTS statecast_rooms (
      id text PRIMARY KEY,
      revision bigint NOT NULL,
      snapshot_revision bigint NOT NULL,
      snapshot text NOT NULL,
      last_used timestamptz NOT NULL DEFAULT now()
    )
    """,
    "CREATE INDEX IF NOT EXISTS statecast_rooms_last_used ON statecast_rooms (last_used)",
    """
    CREATE TABLE IF NOT EXISTS statecast_journal (
      room text NOT NULL REFERENCES statecast_rooms (id) ON DELETE CASCADE,
      revision bigint NOT NULL,
      patch text NOT NULL,
      PRIMARY KEY (room, revision)
    )
    """,
    """
    CREATE TABLE IF NOT EXISTS statecast_applied_keys (
      room text NOT NULL REFERENCES statecast_rooms (id) ON DELETE CASCADE,
      key text NOT NULL,
      revision bigint NOT NULL,
      PRIMARY KEY (room, key)
    )
    """,
    "CREATE INDEX IF NOT EXISTS statecast_applied_keys_revision ON statecast_applied_keys (room, revision)",
    """
    CREATE TABLE IF NOT EXISTS statecast_archived_snapshots (
      room text NOT NULL,
      revision bigint NOT NULL,
      snapshot text NOT NULL,
      archived_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (room, revision)
    )
    """,
    """
    CREATE TABLE IF NOT EXISTS statecast_sessions (
      id text PRIMARY KEY,
      node text NOT NULL,
      saved_at timestamptz NOT NULL DEFAULT now(),
      topics text NOT NULL
    )
    """,
    "CREATE INDEX IF NOT EXISTS statecast_sessions_saved_at ON statecast_sessions (saved_at)",
    """
    CREATE TABLE IF NOT EXISTS statecast_leases (
      room text PRIMARY KEY,
      node text NOT NULL,
      expires_at timestamptz NOT NULL
    )
    """,
    """
    CREATE TABLE IF NOT EXISTS statecast_nodes (
      id text PRIMARY KEY,
      seen_at timestamptz NOT NULL,
      expires_at timestamptz NOT NULL
    )
    """,
    """
    CREATE TABLE IF NOT EXISTS statecast_messages (
      id bigserial PRIMARY KEY,
      recipient text NOT NULL,
      payload text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now()
    )
    """,
  ]

  static func create(on client: PostgresClient, logger: Logger) async throws {
    try await client.withTransaction(logger: logger) { connection in
      try await connection.query("SELECT pg_advisory_xact_lock(\(lockKey))", logger: logger)
      for statement in statements { try await connection.query(statement, logger: logger) }
    }
  }
}
