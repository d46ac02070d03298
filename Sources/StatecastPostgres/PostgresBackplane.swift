import Logging
import PostgresNIO
public import StatecastStorage

/// The ``ClusterBackplane`` of a cluster, in the same PostgreSQL as its storage.
///
/// - Leases are rows of `statecast_leases` (room, node, expiry), compared with the
///   database's clock (`now()`), so the nodes' clocks need not agree. Acquiring is one
///   statement: insert, or take over a lease that expired or is already this node's.
/// - Heartbeats are rows of `statecast_nodes`.
/// - Messages are notifications (`LISTEN`/`NOTIFY`): each node listens on the channel
///   `statecast_<node>` on a connection of its own, and sends on one dedicated
///   connection, so what one node sends to another arrives in order. A payload too
///   large for a notification goes through `statecast_messages`, and the notification
///   carries its row's id; the receiver fetches it before handling the next one.
///
/// ```swift
/// let owner = try await postgres.backplane.acquireLease(room: "board/team", ttl: .seconds(10))
/// if owner != postgres.node { try await postgres.backplane.send(action, to: owner) }
/// ```
public final class PostgresBackplane: ClusterBackplane {
  /// The largest payload sent inline: PostgreSQL refuses notifications of 8,000 bytes
  /// or more, and the channel name and a marker share that limit.
  static let largestInlinePayload = 7_900

  public let node: String
  public let inbox: AsyncStream<BackplaneEvent>
  let inboxContinuation: AsyncStream<BackplaneEvent>.Continuation
  let client: PostgresClient
  let sender: PostgresClient
  let logger: Logger

  init(node: String, client: PostgresClient, sender: PostgresClient, logger: Logger) {
    self.node = node
    self.client = client
    self.sender = sender
    self.logger = logger
    (inbox, inboxContinuation) = AsyncStream.makeStream(bufferingPolicy: .unbounded)
  }

  /// The notification channel a node listens on; node ids are hexadecimal, so the
  /// name is a plain identifier.
  static func channel(of node: String) -> String { "statecast_\(node)" }

  public func acquireLease(room: String, ttl: Duration) async throws -> String {
    try await databaseAccess { [self] in
      // The CTE's SELECT sees the table as it was before the INSERT: when the lease is
      // not taken, it reads the holder that kept it.
      let rows = try await client.query(
        """
        WITH taken AS (
          INSERT INTO statecast_leases (room, node, expires_at)
          VALUES (\(room), \(node), now() + make_interval(secs => \(ttl.seconds)))
          ON CONFLICT (room) DO UPDATE SET node = EXCLUDED.node, expires_at = EXCLUDED.expires_at
          WHERE statecast_leases.node = EXCLUDED.node OR statecast_leases.expires_at <= now()
          RETURNING node
        )
        SELECT node FROM taken
        UNION ALL
        SELECT node FROM statecast_leases WHERE room = \(room) AND NOT EXISTS (SELECT 1 FROM taken)
        """,
        logger: logger
      )
      var holder: String?
      for try await node in rows.decode(String.self) { holder = node }
      guard let holder else {
        throw StorageError.databaseFailed(reason: "no lease holder returned for \(room)")
      }
      return holder
    }
  }

  /// A lease of this node that expired but that no other node took is renewed too:
  /// nobody else can have written the room meanwhile, since appends need the lease.
  public func renewLeases(_ rooms: [String], ttl: Duration) async throws -> Set<String> {
    guard !rooms.isEmpty else { return [] }
    let renewed = try await databaseAccess { [self] in
      let rows = try await client.query(
        """
        UPDATE statecast_leases SET expires_at = now() + make_interval(secs => \(ttl.seconds))
        WHERE room = ANY(\(rooms)::text[]) AND node = \(node) RETURNING room
        """,
        logger: logger
      )
      var renewed: Set<String> = []
      for try await room in rows.decode(String.self) { renewed.insert(room) }
      return renewed
    }
    return Set(rooms).subtracting(renewed)
  }

  public func leaseHolder(room: String) async throws -> String? {
    try await databaseAccess { [self] in
      let rows = try await client.query(
        "SELECT node FROM statecast_leases WHERE room = \(room) AND expires_at > now()", logger: logger)
      var holder: String?
      for try await node in rows.decode(String.self) { holder = node }
      return holder
    }
  }

  public func releaseLease(room: String) async throws {
    try await databaseAccess { [self] in
      try await client.query(
        "DELETE FROM statecast_leases WHERE room = \(room) AND node = \(node)", logger: logger)
    }
  }

  public func heartbeat(ttl: Duration) async throws -> Set<String> {
    try await databaseAccess { [self] in
      let rows = try await client.query(
        """
        WITH beat AS (
          INSERT INTO statecast_nodes (id, seen_at, expires_at)
          VALUES (\(node), now(), now() + make_interval(secs => \(ttl.seconds)))
          ON CONFLICT (id) DO UPDATE SET seen_at = EXCLUDED.seen_at, expires_at = EXCLUDED.expires_at
        )
        SELECT id FROM statecast_nodes WHERE expires_at > now() AND id <> \(node)
        """,
        logger: logger
      )
      var alive: Set<String> = [node]
      for try await id in rows.decode(String.self) { alive.insert(id) }
      return alive
    }
  }
}
