import Foundation
import Statecast
import StatecastTransport

/// One browser tab's server-side identity: its id and the socket it is on now (none
/// while it waits for a reconnect).
///
/// A session outlives its socket by a grace period so that a tab that reconnects
/// (`hello` with this id) finds its stores, their running effects and its place in
/// every topic as it left them. Which topics it has joined is the ``TopicRegistry``'s
/// to know; when it expires is the ``SessionRegistry``'s.
///
/// Thread safety: the socket and the pending expiry are locked together.
final class Session: Sendable {
  let id: String
  /// Who the session belongs to: only a socket authenticated as the same viewer may
  /// resume it.
  let viewer: Viewer

  private struct Socket: Sendable {
    var connection: ConnectionID?
    var expiry: Task<Void, Never>?
  }
  private let socket: Locked<Socket>

  init(id: String = SessionID.make(), viewer: Viewer, connection: ConnectionID) {
    self.id = id
    self.viewer = viewer
    self.socket = Locked(Socket(connection: connection))
  }

  var currentConnection: ConnectionID? { socket.withLock { $0.connection } }

  /// Moves the session to `connection`, cancelling a pending expiry. Returns the socket
  /// it was on, if any, so that the caller can close it.
  func moveTo(_ newConnection: ConnectionID) -> ConnectionID? {
    socket.withLock { socket in
      socket.expiry?.cancel()
      socket.expiry = nil
      defer { socket.connection = newConnection }
      return socket.connection == newConnection ? nil : socket.connection
    }
  }

  /// Marks the session disconnected if it is still on `old`; returns whether it was.
  func disconnect(from old: ConnectionID, expiry makeExpiry: () -> Task<Void, Never>) -> Bool {
    socket.withLock { socket in
      guard socket.connection == old else { return false }
      socket.connection = nil
      socket.expiry = makeExpiry()
      return true
    }
  }

  /// Cancels a pending expiry (the server is stopping and closes everything itself).
  func cancelExpiry() {
    socket.withLock { socket in
      socket.expiry?.cancel()
      socket.expiry = nil
    }
  }

  /// Whether the session is (still) without a socket: checked when the grace period ends.
  var isDisconnected: Bool { socket.withLock { $0.connection == nil } }
}
