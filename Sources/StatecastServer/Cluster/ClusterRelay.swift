import StatecastTransport

/// Hands the frames a room's owner sent for this process's sockets to the transport,
/// never with a revision gap (``RelayGuard``), and remembers which members wait for a
/// fresh snapshot meanwhile.
///
/// The inbox relays through it; a followed room asks it whether its member waits, and
/// tells it when a member left. When an awaited snapshot has gone out, it tells the
/// connection hub (``onSnapshotWaitEnded``), which releases the replies held meanwhile.
final class ClusterRelay: Sendable {
  private struct State {
    /// Keeps the frames relayed to this process's sockets free of revision gaps.
    var relayGuard = RelayGuard()
    /// The transport's sink, where frames for this process's sockets go.
    var sink: (any FrameSink)?
    var onSnapshotWaitEnded: (@Sendable (ConnectionID) -> Void)?
  }

  private let state = Locked(State())

  /// Frames for this process's sockets go to `sink` (set once, before the inbox starts).
  func connect(to sink: any FrameSink) {
    state.withLock { $0.sink = sink }
  }

  /// Called with a socket whose member stopped waiting for a snapshot (it came, or the
  /// member could not join again), so that the replies held for it go out. Set once,
  /// before the server starts.
  func onSnapshotWaitEnded(_ body: @escaping @Sendable (ConnectionID) -> Void) {
    state.withLock { $0.onSnapshotWaitEnded = body }
  }

  /// Queues an owner's frame to `connections` of this process, except to those that
  /// wait for a snapshot of its room, and returns its room and the sockets it did not
  /// follow the last frame on (frames were lost): their members must join the owner
  /// again. A frame of a room `isOwnedHere` comes from its former owner: it is dropped.
  func relay(_ payload: [UInt8], to connections: [UInt64], isOwnedHere: (String) -> Bool)
    -> (topic: String, gaps: [ConnectionID])?
  {
    let head = RelayGuard.FrameHead(payload)
    if let head, isOwnedHere(head.topic) { return nil }
    var gaps: [UInt64] = []
    var caughtUp: [UInt64] = []
    let frame = OutboundFrame(text: payload)
    // A slow reader here is treated as one on the owner's process would be: a patch
    // that finds its socket congested is its last until the socket drains, when it
    // asks the owner for one fresh snapshot (`ClusterRoomHost.resync`), instead of its
    // queue growing until the socket is closed as too slow. (A snapshot that finds it
    // congested is still the latest state: nothing to ask for.) Queued and marked under
    // the lock that the drained socket's request takes, so the request cannot come
    // between the two and be missed.
    let onWaitEnded = state.withLock { state -> (@Sendable (ConnectionID) -> Void)? in
      var targets = connections
      if let head {
        if head.isSnapshot {
          caughtUp = connections.filter { state.relayGuard.isAwaitingSnapshot(of: head.topic, on: $0) }
        }
        targets = connections.filter { connection in
          switch state.relayGuard.admit(head, to: connection) {
          case .relay: return true
          case .drop: return false
          case .gap:
            gaps.append(connection)
            return false
          }
        }
      }
      guard !targets.isEmpty else { return nil }
      let outcome = state.sink?.broadcast(frame, to: targets.map { ConnectionID(rawValue: $0) })
      if let head, !head.isSnapshot, let congested = outcome?.congested {
        for connection in congested {
          state.relayGuard.awaitSnapshot(of: head.topic, on: connection.rawValue)
        }
      }
      return state.onSnapshotWaitEnded
    }
    // Replies held while these members waited go out now, after the snapshot.
    if let onWaitEnded {
      for connection in caughtUp { onWaitEnded(ConnectionID(rawValue: connection)) }
    }
    guard let head, !gaps.isEmpty else { return nil }
    return (head.topic, gaps.map { ConnectionID(rawValue: $0) })
  }

  /// The members on `connections` are joining `topic`'s owner again: the room's patches
  /// to them are dropped until their snapshot comes.
  func awaitSnapshot(of topic: String, on connections: [ConnectionID]) {
    state.withLock {
      for connection in connections { $0.relayGuard.awaitSnapshot(of: topic, on: connection.rawValue) }
    }
  }

  /// The member on `connection` left `topic`, or its socket is gone.
  func forget(_ topic: String, on connection: ConnectionID) {
    state.withLock { $0.relayGuard.forget(topic, on: connection.rawValue) }
  }

  /// Whether to ask `topic`'s owner for the snapshot the member on `connection` waits
  /// for (frames were dropped for its congested socket): once per wait.
  func requestSnapshot(of topic: String, on connection: ConnectionID) -> Bool {
    state.withLock { $0.relayGuard.requestSnapshot(of: topic, on: connection.rawValue) }
  }

  /// Whether the member on `connection` waits for a fresh snapshot of `topic`: its
  /// replies wait too, or they would overtake their effect.
  func isAwaitingSnapshot(of topic: String, on connection: ConnectionID) -> Bool {
    state.withLock { $0.relayGuard.isAwaitingSnapshot(of: topic, on: connection.rawValue) }
  }

  /// The member on `connection` no longer waits for a snapshot of `topic`, which will
  /// not come (it could not join the owner again): later patches pass as they come.
  func endSnapshotWait(of topic: String, on connection: ConnectionID) {
    let onWaitEnded = state.withLock {
      $0.relayGuard.forget(topic, on: connection.rawValue)
      return $0.onSnapshotWaitEnded
    }
    onWaitEnded?(connection)
  }
}
