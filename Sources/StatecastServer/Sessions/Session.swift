import Foundation
import Statecast

/// One browser tab's server-side identity: its id and the socket it is on now (none
/// while it waits for a reconnect).
///
/// A session outlives its socket by a grace period so that a tab that reconnects
/// (`hello` with this id) finds its stores, their running effects and its place in
/// every topic as it left them. Which topics it has joined is the ``TopicRegistry``'s
/// to know; when it expires is the ``SessionRegistry``'s.
///
/// Thread safety: every property below `lock` is guarded by it.
final class Session: @unchecked Sendable {
  let id: String
  /// Who the session belongs to: only a socket authenticated as the same viewer may
  /// resume it.
  let viewer: Viewer

  private let lock = NSLock()
  private var connection: ConnectionID?
  private var expiry: Task<Void, Never>?

  init(id: String = SessionID.make(), viewer: Viewer, connection: ConnectionID) {
    self.id = id
    self.viewer = viewer
    self.connection = connection
  }

  var currentConnection: ConnectionID? { lock.withLock { connection } }

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

  /// Cancels a pending expiry (the server is stopping and closes everything itself).
  func cancelExpiry() {
    lock.withLock {
      expiry?.cancel()
      expiry = nil
    }
  }

  /// Whether the session is (still) without a socket: checked when the grace period ends.
  var isDisconnected: Bool { lock.withLock { connection == nil } }
}
