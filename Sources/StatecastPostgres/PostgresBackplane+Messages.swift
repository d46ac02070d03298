import Logging
import PostgresNIO
import StatecastStorage

/// A notification's payload is `=` and the message itself, or `#` and the id of the
/// `statecast_messages` row holding a message too large to notify.
extension PostgresBackplane {
  /// Sends on the dedicated sending connection. One statement either way, so a large
  /// payload's row is committed together with its notification.
  public func send(_ payload: String, to node: String) async throws {
    let channel = Self.channel(of: node)
    try await databaseAccess { [self] in
      if payload.utf8.count <= Self.largestInlinePayload {
        try await sender.query("SELECT pg_notify(\(channel), \("=" + payload))", logger: logger)
      } else {
        try await sender.query(
          """
          WITH message AS (
            INSERT INTO statecast_messages (recipient, payload) VALUES (\(node), \(payload)) RETURNING id
          )
          SELECT pg_notify(\(channel), '#' || id) FROM message
          """,
          logger: logger
        )
      }
    }
  }

  /// Turns one notification into the message it carries, fetching (and deleting) a
  /// large one's row; `nil` for a notification that is not a message.
  func message(in notification: String) async throws -> String? {
    if notification.hasPrefix("=") { return String(notification.dropFirst()) }
    guard notification.hasPrefix("#"), let id = Int64(notification.dropFirst()) else {
      logger.warning(
        "ignoring a notification that is not a message", metadata: ["payload": "\(notification.prefix(40))"])
      return nil
    }
    let rows = try await client.query(
      "DELETE FROM statecast_messages WHERE id = \(id) RETURNING payload", logger: logger)
    var payload: String?
    for try await text in rows.decode(String.self) { payload = text }
    return payload
  }

  /// Deletes large messages nobody fetched (their recipient had gone), heartbeats of
  /// nodes long dead and leases long expired.
  func collectGarbage() async throws {
    try await client.query(
      "DELETE FROM statecast_messages WHERE created_at < now() - interval '5 minutes'", logger: logger)
    try await client.query(
      "DELETE FROM statecast_nodes WHERE expires_at < now() - interval '1 hour'", logger: logger)
    try await client.query(
      "DELETE FROM statecast_leases WHERE expires_at < now() - interval '1 hour'", logger: logger)
  }
}
