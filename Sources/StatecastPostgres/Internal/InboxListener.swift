import Logging
import PostgresNIO
import StatecastStorage

/// Keeps one connection listening on this node's channel, and feeds the backplane's
/// inbox from it, one notification at a time, in order (a large message is fetched
/// before the next notification is looked at).
///
/// When the connection drops (PostgreSQL restarted, network cut), it connects again
/// with back-off; once listening again it yields `.interrupted`, since whatever was
/// sent meanwhile is lost. A query every few seconds notices a connection that died
/// silently.
struct InboxListener {
  let backplane: PostgresBackplane
  let configuration: PostgresConnection.Configuration
  let logger: Logger
  var pingInterval: Duration = .seconds(5)

  /// Runs until the task is cancelled; calls `subscribed` each time it listens again.
  func run(subscribed: @Sendable () -> Void) async {
    var listenedBefore = false
    var backoff: Duration = .milliseconds(100)
    var connectionID = 0
    while !Task.isCancelled {
      connectionID += 1
      do {
        let connection = try await PostgresConnection.connect(
          configuration: configuration, id: connectionID, logger: logger)
        do {
          try await connection.listen(on: PostgresBackplane.channel(of: backplane.node)) { notifications in
            if listenedBefore { backplane.inboxContinuation.yield(.interrupted) }
            listenedBefore = true
            backoff = .milliseconds(100)
            subscribed()
            try await deliver(notifications, pinging: connection)
          }
        } catch {
          try? await connection.close()
          throw error
        }
        try? await connection.close()
      } catch {
        if Task.isCancelled { return }
        logger.warning(
          "backplane listener disconnected; reconnecting", metadata: ["error": "\(String(reflecting: error))"]
        )
      }
      do { try await Task.sleep(for: backoff) } catch { return }
      backoff = min(backoff * 2, .seconds(5))
    }
  }

  private func deliver(_ notifications: PostgresNotificationSequence, pinging connection: PostgresConnection)
    async throws
  {
    try await withThrowingTaskGroup(of: Void.self) { group in
      group.addTask {
        for try await notification in notifications {
          do {
            if let message = try await backplane.message(in: notification.payload) {
              backplane.inboxContinuation.yield(.message(message))
            }
          } catch {
            // The large message could not be fetched: say that messages were lost.
            logger.warning(
              "cannot fetch a backplane message", metadata: ["error": "\(String(reflecting: error))"])
            backplane.inboxContinuation.yield(.interrupted)
          }
        }
        throw NotificationsEnded()
      }
      group.addTask {
        while true {
          try await Task.sleep(for: pingInterval)
          try await connection.query("SELECT 1", logger: logger)
        }
      }
      defer { group.cancelAll() }
      try await group.next()
    }
  }
}

/// The notification sequence ended: the connection is gone.
private struct NotificationsEnded: Error {}
