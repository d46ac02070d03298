import StatecastTransport

/// The rooms of a cluster this process has open (as their owner or a follower), by
/// name: a room enters when it opens and leaves when it closes here; the inbox and the
/// upkeep find them here.
final class ClusterRooms: Sendable {
  private let rooms = Locked([String: ClusterRoomHost]())

  func register(_ host: ClusterRoomHost) {
    rooms.withLock { $0[host.topic] = host }
  }

  func unregister(_ host: ClusterRoomHost) {
    rooms.withLock {
      if $0[host.topic] === host { $0[host.topic] = nil }
    }
  }

  subscript(topic: String) -> ClusterRoomHost? {
    rooms.withLock { $0[topic] }
  }

  var all: [ClusterRoomHost] {
    rooms.withLock { Array($0.values) }
  }
}

/// What a room of a cluster works with: the line to other processes, the relay of
/// owners' frames to this process's sockets, the table of rooms, and the sockets of
/// members forwarded from other processes.
struct ClusterParts: Sendable {
  let link: ClusterLink
  let relay: ClusterRelay
  let rooms: ClusterRooms
  let remotes: RemoteConnections
}
