import Foundation

/// The sockets of members on other nodes, as the owner of a room sees them: each gets a
/// connection id of this process (with the top bit set, which the transport never
/// sets), so that a room's ``StoreHost`` treats a remote member exactly like a local one.
final class RemoteConnections: @unchecked Sendable {
  // Sendable: the tables are guarded by `lock`.
  struct Address: Hashable, Sendable {
    var node: String
    var connection: UInt64
  }

  private static let remoteBit: UInt64 = 1 << 63
  private let lock = NSLock()
  private var ids: [Address: ConnectionID] = [:]
  private var addresses: [ConnectionID: Address] = [:]
  private var next: UInt64 = 0

  /// The id standing for `connection` on `node`, the same every time.
  func id(for address: Address) -> ConnectionID {
    lock.withLock {
      if let id = ids[address] { return id }
      next += 1
      let id = ConnectionID(rawValue: Self.remoteBit | next)
      ids[address] = id
      addresses[id] = address
      return id
    }
  }

  /// Where a remote member's socket is, or `nil` for a socket of this process.
  func address(of id: ConnectionID) -> Address? {
    guard id.rawValue & Self.remoteBit != 0 else { return nil }
    return lock.withLock { addresses[id] }
  }

  /// Forgets a remote socket (its member left or moved).
  func forget(_ id: ConnectionID) {
    lock.withLock {
      if let address = addresses.removeValue(forKey: id) { ids[address] = nil }
    }
  }
}

/// The frame sink of a clustered server's rooms: frames for sockets of this process go
/// to the transport; frames for members on other nodes go to their node, one message
/// per node however many of its members get the frame.
struct ClusterSink: FrameSink {
  let base: any FrameSink
  let remotes: RemoteConnections
  let post: @Sendable (ClusterMessage, _ node: String) -> Void

  func send(_ frame: OutboundFrame, to connection: ConnectionID) -> SendOutcome {
    guard let address = remotes.address(of: connection) else { return base.send(frame, to: connection) }
    post(.frame(connections: [address.connection], payload: frame.payload), address.node)
    return .queued
  }

  func broadcast(_ frame: OutboundFrame, to connections: [ConnectionID]) -> BroadcastOutcome {
    var local: [ConnectionID] = []
    var byNode: [String: [UInt64]] = [:]
    for connection in connections {
      if let address = remotes.address(of: connection) {
        byNode[address.node, default: []].append(address.connection)
      } else {
        local.append(connection)
      }
    }
    if !byNode.isEmpty {
      let payload = frame.payload
      for (node, remote) in byNode { post(.frame(connections: remote, payload: payload), node) }
    }
    return local.isEmpty ? BroadcastOutcome() : base.broadcast(frame, to: local)
  }

  func close(_ connection: ConnectionID, code: UInt16, reason: String) {
    // A remote member's socket is its own node's to close.
    guard remotes.address(of: connection) == nil else { return }
    base.close(connection, code: code, reason: reason)
  }
}
