import Foundation
import StatecastTransport

/// The sockets of members on other processes, as the owner of their rooms sees them:
/// each gets a connection id of this process (with the top bit set, which the transport
/// never sets), so that a room's ``StoreHost`` treats a forwarded member exactly like a
/// local one, and ``ClusterSink`` sends its frames to its process.
///
/// A session is on one socket at a time, so this also says where each forwarded
/// session is now: a message about a session from a process it has since left is
/// recognised as late and ignored.
final class RemoteConnections: Sendable {
  struct Address: Hashable, Sendable {
    var node: String
    var connection: UInt64
  }

  private struct Tables {
    var ids: [Address: ConnectionID] = [:]
    var addresses: [ConnectionID: Address] = [:]
    /// Forwarded session → its socket now.
    var sessions: [String: ConnectionID] = [:]
    /// When each forwarded session last joined a room here.
    var joined: [String: ContinuousClock.Instant] = [:]
    var next: UInt64 = 0
  }

  private static let remoteBit: UInt64 = 1 << 63
  private let tables = Locked(Tables())

  /// The id standing for `connection` on `node`, the same every time.
  func id(for address: Address) -> ConnectionID {
    tables.withLock { Self.id(for: address, in: &$0) }
  }

  /// The id of a socket already known, `nil` for one never seen or forgotten.
  func existingID(for address: Address) -> ConnectionID? {
    tables.withLock { $0.ids[address] }
  }

  /// `session` is on the socket at `address` now; a socket it was on before is forgotten.
  /// `joining` when it joins a room (see ``sessions(joinedBefore:)``).
  func place(_ session: String, at address: Address, joining: Bool = false) -> ConnectionID {
    tables.withLock { tables in
      let id = Self.id(for: address, in: &tables)
      if joining { tables.joined[session] = .now }
      if let previous = tables.sessions.updateValue(id, forKey: session), previous != id {
        Self.forget(previous, in: &tables)
      }
      return id
    }
  }

  /// The socket of a forwarded session, `nil` for a session not forwarded here.
  func socket(of session: String) -> (id: ConnectionID, node: String)? {
    tables.withLock { tables in
      guard let id = tables.sessions[session], let address = tables.addresses[id] else { return nil }
      return (id, address.node)
    }
  }

  /// The forwarded sessions on `node`'s sockets, with their socket.
  func sessions(on node: String) -> [(session: String, id: ConnectionID)] {
    tables.withLock { tables in
      tables.sessions.compactMap { session, id -> (session: String, id: ConnectionID)? in
        tables.addresses[id]?.node == node ? (session: session, id: id) : nil
      }
    }
  }

  /// The forwarded sessions that last joined a room here before `instant`: a join still
  /// on its way to its room's store is not among them.
  func sessions(joinedBefore instant: ContinuousClock.Instant) -> [String] {
    tables.withLock { tables in
      tables.sessions.keys.filter { (tables.joined[$0] ?? instant) < instant }
    }
  }

  /// The processes forwarded sessions are on.
  var nodes: Set<String> {
    tables.withLock { tables in Set(tables.sessions.values.compactMap { tables.addresses[$0]?.node }) }
  }

  /// Where a remote member's socket is, or `nil` for a socket of this process.
  func address(of id: ConnectionID) -> Address? {
    guard id.rawValue & Self.remoteBit != 0 else { return nil }
    return tables.withLock { $0.addresses[id] }
  }

  /// The session is no longer forwarded here (it left, or it is on this process now).
  func forget(session: String) {
    tables.withLock { tables in
      tables.joined[session] = nil
      if let id = tables.sessions.removeValue(forKey: session) { Self.forget(id, in: &tables) }
    }
  }

  private static func id(for address: Address, in tables: inout Tables) -> ConnectionID {
    if let id = tables.ids[address] { return id }
    tables.next += 1
    let id = ConnectionID(rawValue: remoteBit | tables.next)
    tables.ids[address] = id
    tables.addresses[id] = address
    return id
  }

  private static func forget(_ id: ConnectionID, in tables: inout Tables) {
    if let address = tables.addresses.removeValue(forKey: id) { tables.ids[address] = nil }
  }
}
