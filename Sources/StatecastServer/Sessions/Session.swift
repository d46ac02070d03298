import Foundation

/// One browser tab's server-side state: its id, the topics it has joined, and the
/// socket it is on now (none while it waits for a reconnect).
///
/// A session outlives its socket by a grace period so that a tab that reconnects
/// (`hello` with this id) finds its stores, their running effects and its place in
/// every topic as it left them.
///
/// Thread safety: every property below `lock` is guarded by it. The lock is never held
/// while calling into a topic.
final class Session: @unchecked Sendable {
  let id: String

  private let lock = NSLock()
  private var topics: [String: any TopicHost] = [:]
  private var connection: ConnectionID?
  private var expiry: Task<Void, Never>?

  init(id: String = SessionID.make(), connection: ConnectionID) {
    self.id = id
    self.connection = connection
  }

  var currentConnection: ConnectionID? { lock.withLock { connection } }

  func topic(_ name: String) -> (any TopicHost)? {
    lock.withLock { topics[name] }
  }

  func add(_ host: any TopicHost) {
    lock.withLock { topics[host.topic] = host }
  }

  var topicCount: Int { lock.withLock { topics.count } }

  func removeTopic(_ name: String) -> (any TopicHost)? {
    lock.withLock { topics.removeValue(forKey: name) }
  }

  /// Takes every topic out of the session (when it expires or the server stops).
  func removeAllTopics() -> [any TopicHost] {
    lock.withLock {
      defer { topics = [:] }
      return Array(topics.values)
    }
  }

  var allTopics: [any TopicHost] { lock.withLock { Array(topics.values) } }

  /// Moves the session to `connection`, cancelling a pending expiry. Returns the socket
  /// it was on, if any, so that the caller can close it.
  func moveTo(_ newConnection: ConnectionID) -> ConnectionID? {
    lock.withLock {
      expiry?.cancel()
      expiry = nil
      defer { connection = newConnection }
      return connection == newConnection ? nil : connection
    }
  }

  /// Marks the session disconnected if it is still on `old`; returns whether it was.
  func disconnect(from old: ConnectionID, expiry makeExpiry: () -> Task<Void, Never>) -> Bool {
    lock.withLock {
      guard connection == old else { return false }
      connection = nil
      expiry = makeExpiry()
      return true
    }
  }

  /// Whether the session is (still) without a socket: checked when the grace period ends.
  var isDisconnected: Bool { lock.withLock { connection == nil } }
}
