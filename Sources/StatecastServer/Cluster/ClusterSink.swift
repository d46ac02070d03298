import Foundation

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
