import Logging
import PostgresNIO
import StatecastJSON
public import StatecastStorage

/// The ``StateStorage`` of a cluster: rooms and sessions in PostgreSQL, shared by every
/// node of a ``PostgresCluster``. The same semantics as `SQLiteStorage` (a snapshot and
/// a journal of patches per room, revision-fenced appends, group commit), and two rules
/// for several writers:
/// - an ``append(_:)`` succeeds only while this node holds an unexpired lease on the
///   room (see ``PostgresBackplane/acquireLease(room:ttl:)``); otherwise it throws
///   ``StorageError/revisionConflict(room:expected:found:)`` and writes nothing, so a
///   paused former owner cannot write over its successor;
/// - ``deleteSession(_:)`` deletes only a session this node saved last: a session
///   another node resumed belongs to that node now.
///
/// Times (`lastUsed`, `savedAt`, lease expiry) are the database's clock, so the nodes'
/// clocks need not agree. A failing database throws ``StorageError/databaseFailed(reason:)``.
///
/// ```swift
/// let postgres = try PostgresCluster(url: "postgres://statecast@127.0.0.1:5432/statecast", logger: logger)
/// let journal = try await RoomJournal.open(room: "todos/team-42", in: postgres.storage, initialState: Todos())
/// ```
public final class PostgresStorage: StateStorage {
  /// The node this storage writes as (the cluster's node id).
  public let node: String
  let client: PostgresClient
  let logger: Logger
  let writer: GroupCommit

  init(node: String, client: PostgresClient, snapshotInterval: Int, logger: Logger) {
    self.node = node
    self.client = client
    self.logger = logger
    let batch = PostgresJournalBatch(
      node: node, client: client, snapshotInterval: Int64(max(1, snapshotInterval)), logger: logger)
    writer = GroupCommit(writeBatch: { try await batch.write($0) }, failure: { StorageError(postgres: $0) })
  }

  public var counters: StorageCounters { writer.counters }

  public func append(_ entry: JournalEntry) async throws {
    try await writer.append(entry)
  }
}
