import Foundation
import Logging
import StatecastJSON
import StatecastStorage

/// A follower's side of a room: its members' joins and actions forwarded to the owner,
/// joined there again when frames were lost, and counted when the owner asks.
extension ClusterRoomHost {
  /// Sends the action to the owner and waits until it ran there (its patch is then on
  /// the member's socket); `false` when the owner no longer runs the room, which is
  /// looked up again.
  func forwardAction(
    _ action: JSON, key: String?, from session: String, creator: RoomCreator?, to owner: String
  ) async throws(ProtocolError) -> Bool {
    let outcome = await link.request(to: owner, about: topic) { ref in
      .action(
        ref: ref, node: link.id, room: topic, session: session, action: action, key: key, creator: creator)
    }
    switch outcome {
    case .ok:
      return true
    case .failed(let answer) where answer == .notOwner:
      await checkOwner()
      return false
    case .failed(let answer):
      throw ProtocolError(ProtocolError.Code(rawValue: answer.code) ?? .unavailable, answer.message)
    case .noAnswer:
      throw ProtocolError(.unavailable, "the process that runs \(topic) did not answer in time; try again")
    }
  }

  /// Joins the member at the owner, which queues its snapshot before answering. A room
  /// changing hands meanwhile (the owner is gone, or does not have it) is looked up again
  /// until the request's deadline.
  func forwardJoin(_ request: JoinRequest, connection: ConnectionID, to owner: String) async throws {
    var owner = owner
    let deadline = ContinuousClock.now + link.requestTimeout
    while true {
      let outcome = await link.request(to: owner, about: topic) { ref in
        .join(
          ref: ref, node: link.id, connection: connection.rawValue,
          request: ClusterMessage.RemoteJoin(request))
      }
      switch outcome {
      case .ok:
        return
      case .failed(let answer) where answer != .notOwner:
        throw ProtocolError(ProtocolError.Code(rawValue: answer.code) ?? .forbidden, answer.message)
      case .failed, .noAnswer:
        guard ContinuousClock.now < deadline else { throw ClusterUnavailable(topic: topic) }
        try await Task.sleep(for: .milliseconds(50))
        await checkOwner()
        switch await whenSettled({ $0.ownership.target }) {
        case .store(let inner):
          guard try await inner.attach(request, connection: connection) else {
            throw ClusterUnavailable(topic: topic)
          }
          return
        case .owner(let next):
          owner = next
        case .closed, .handingOver:
          throw ClusterUnavailable(topic: topic)
        }
      }
    }
  }

  /// Joins each member to the owner again (a snapshot follows). One the owner cannot be
  /// reached for is tried again every second while it is still here on the same socket.
  /// One that is away joins when it comes back (see ``LocalMember/mustJoinOwner``).
  func rejoin(_ members: [LocalMember], to owner: String) {
    for member in members {
      guard let connection = member.connection else {
        shared.withLock { shared in
          if shared.local[member.request.session]?.connection == nil {
            shared.local[member.request.session]?.mustJoinOwner = true
          }
        }
        continue
      }
      let session = member.request.session
      let joining = Task { await join(member.request, connection: connection, to: owner) }
      shared.withLock { shared in
        if shared.local[session]?.connection == connection { shared.local[session]?.joining = joining }
      }
      Task {
        var unreachable = await joining.value
        while unreachable {
          let next = shared.withLock { shared -> String? in
            guard shared.local[session]?.connection == connection else { return nil }
            return shared.ownership.followed
          }
          guard let next else { return }
          try? await Task.sleep(for: .seconds(1))
          unreachable = await join(member.request, connection: connection, to: next)
        }
      }
    }
  }

  /// One attempt to join a member at `owner`; `true` when no process running the room
  /// could be reached in time (it is tried again).
  private func join(_ request: JoinRequest, connection: ConnectionID, to owner: String) async -> Bool {
    do {
      try await forwardJoin(request, connection: connection, to: owner)
    } catch is ClusterUnavailable {
      return true
    } catch {
      logger.warning(
        "a member could not join a room's new owner",
        metadata: ["topic": "\(topic)", "session": SessionID.logged(request.session)])
      cluster.relay.endSnapshotWait(of: topic, on: connection)
    }
    return false
  }

  /// Follower whose messages may have been lost: its members join the owner again, each
  /// getting a fresh snapshot.
  func resynchronize() {
    let (owner, members) = shared.withLock { ($0.ownership.followed, Array($0.local.values)) }
    guard let owner else { return }
    cluster.relay.awaitSnapshot(of: topic, on: members.compactMap(\.connection))
    rejoin(members, to: owner)
  }

  /// Follower: `owner` asks which members this node has in the room.
  func reportMembers(to owner: String) {
    let sessions = shared.withLock { shared -> [String]? in
      guard shared.ownership.followed == owner else { return nil }
      return Array(shared.local.keys)
    }
    if let sessions { link.post(.members(node: link.id, room: topic, sessions: sessions), to: owner) }
  }

  /// Follower: a patch to the member on `connection` did not follow the last one it
  /// got (frames were lost): it joins the owner again for a fresh snapshot.
  func missedFrames(on connection: ConnectionID) {
    let (owner, member) = shared.withLock { shared -> (String?, LocalMember?) in
      guard let owner = shared.ownership.followed else { return (nil, nil) }
      return (owner, shared.local.values.first { $0.connection == connection })
    }
    if let owner, let member { rejoin([member], to: owner) }
  }
}
