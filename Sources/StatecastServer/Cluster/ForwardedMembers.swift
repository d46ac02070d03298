import Foundation
import Logging
import StatecastJSON
import StatecastTransport

/// The members of this process's rooms that are on other processes' sockets: their
/// forwarded messages become the same ``TopicHost`` calls a ``Connection`` makes for a
/// local member, on the room's store, with the member's socket as an id of
/// ``RemoteConnections`` (whose frames ``ClusterSink`` sends to its process).
///
/// A message about a session from a process it has since left (it resumed elsewhere)
/// is late, and changes nothing. Members of a process that stopped beating show as
/// reconnecting, and are removed after the session grace period unless it beats again.
final class ForwardedMembers: Sendable {
  private let cluster: ClusterParts
  /// Counts the new rooms this process runs for members on other processes, as the
  /// topic registry counts those of its own members.
  private let newRoomQuota: NewRoomQuota?
  /// How long the members of a dead node stay (as reconnecting) before they are removed.
  private let gracePeriod: Duration
  /// Since when each node with members here has stopped beating.
  private let silentSince = Locked([String: ContinuousClock.Instant]())

  private var link: ClusterLink { cluster.link }

  init(cluster: ClusterParts, newRoomQuota: NewRoomQuota?, gracePeriod: Duration) {
    self.cluster = cluster
    self.newRoomQuota = newRoomQuota
    self.gracePeriod = gracePeriod
  }

  /// The store of `topic` if this process runs it; else answers `notOwner`.
  private func ownedStore(_ topic: String, answering ref: Int64, of node: String) -> (any TopicHost)? {
    guard let store = cluster.rooms[topic]?.store else {
      link.post(.answer(ref: ref, error: .notOwner), to: node)
      return nil
    }
    return store
  }

  /// The store of `topic` if this process runs it and `session` is forwarded from `node`.
  private func memberStore(_ topic: String, of session: String, on node: String)
    -> (room: ClusterRoomHost, store: any TopicHost)?
  {
    guard cluster.remotes.socket(of: session)?.node == node, let room = cluster.rooms[topic],
      let store = room.store
    else { return nil }
    return (room, store)
  }

  /// Handles one message about a member of a room run here (others are not its own).
  func handle(_ message: ClusterMessage) {
    switch message {
    case .join(let ref, let node, let connection, let remote):
      guard let store = ownedStore(remote.topic, answering: ref, of: node) else { return }
      let request = remote.request
      let id = cluster.remotes.place(
        request.session, at: .init(node: node, connection: connection), joining: true)
      // The snapshot is queued for `node` before the answer, in one outbox.
      Task {
        let attached = (try? await store.attach(request, connection: id)) == true
        self.link.post(.answer(ref: ref, error: attached ? nil : .notOwner), to: node)
      }
    case .action(let ref, let node, let topic, let session, let action, let key, let creator):
      guard let store = ownedStore(topic, answering: ref, of: node) else { return }
      // Actions of different members run side by side (their durable commits share a
      // write); one member's actions come one at a time, as its socket sends them.
      Task {
        let error = await perform(action, key: key, from: session, creator: creator, on: store)
        self.link.post(.answer(ref: ref, error: error), to: node)
      }
    case .detach(let node, let topic, let session, let connection):
      guard let id = cluster.remotes.existingID(for: .init(node: node, connection: connection)) else { break }
      cluster.rooms[topic]?.store?.detach(session, from: id)
    case .reattach(let node, let topic, let session, let connection, let rev):
      guard cluster.remotes.socket(of: session) != nil, let store = cluster.rooms[topic]?.store else { break }
      let id = cluster.remotes.place(session, at: .init(node: node, connection: connection))
      store.reattach(session, connection: id, after: rev)
    case .resync(let node, let topic, let session):
      // The member's socket on `node` drained after frames of this room were dropped
      // for it there: it gets a fresh snapshot.
      memberStore(topic, of: session, on: node)?.store.refresh(session)
    case .presence(let node, let topic, let session, let meta):
      try? memberStore(topic, of: session, on: node)?.store.setPresence(meta, from: session)
    case .leave(let node, let topic, let session):
      guard let (room, store) = memberStore(topic, of: session, on: node) else { break }
      Task { await remove(session, from: room, store) }
    case .members(let node, let topic, let sessions):
      // `node`'s members of the room are `sessions`; the ones of `node` held here but
      // not in the list left while their `leave` was lost.
      guard let room = cluster.rooms[topic], let store = room.store else { break }
      let listed = Set(sessions)
      let gone = cluster.remotes.sessions(on: node).filter {
        !listed.contains($0.session) && store.joinParams(of: $0.session) != nil
      }
      Task { for member in gone { await remove(member.session, from: room, store) } }
    case .frame, .answer, .census:
      break
    }
  }

  /// A member's action: `nil` when done, else what went wrong. A first change of a
  /// room not stored yet counts against the quota of the member's `creator` here, where
  /// the room runs, as a local member's does in the registry.
  private func perform(
    _ action: JSON, key: String?, from session: String, creator: RoomCreator?, on store: any TopicHost
  ) async -> ClusterMessage.Answer? {
    if let quota = newRoomQuota, let creator, store.claimsNewRoom(),
      !quota.admit(viewer: creator.viewer, address: creator.address)
    {
      store.unclaimNewRoom()
      return ClusterMessage.Answer(
        code: NewRoomQuota.refusal.code.rawValue, message: NewRoomQuota.refusal.message)
    }
    do throws(ProtocolError) {
      try await store.perform(action, key: key, from: session, creator: creator)
      return nil
    } catch {
      return ClusterMessage.Answer(code: error.code.rawValue, message: error.message)
    }
  }

  /// Ends a forwarded member's membership of one room. Its socket stays known while it
  /// may be joining another room here (``forgetSessionsInNoRoom(before:)``).
  private func remove(_ session: String, from room: ClusterRoomHost, _ store: any TopicHost) async {
    if await store.remove(session) { await room.storeEmptied(store) }
  }

  /// Forgets the forwarded sessions in no room run here (they left, or this process gave
  /// their rooms up) whose last join came before `instant`, so long ago that no join of
  /// theirs can still be on its way to a store.
  private func forgetSessionsInNoRoom(before instant: ContinuousClock.Instant) {
    let stores = cluster.rooms.all.compactMap(\.store)
    for session in cluster.remotes.sessions(joinedBefore: instant)
    where !stores.contains(where: { $0.joinParams(of: session) != nil }) {
      cluster.remotes.forget(session: session)
    }
  }

  /// This process's listening connection came back: leaves sent meanwhile are lost, so
  /// each node with members in a room run here sends its list of them.
  func takeCensus() {
    let members = cluster.remotes.nodes.map { ($0, cluster.remotes.sessions(on: $0).map(\.session)) }
    for room in cluster.rooms.all {
      guard let store = room.store else { continue }
      for (node, sessions) in members where sessions.contains(where: { store.joinParams(of: $0) != nil }) {
        link.post(.census(node: link.id, room: room.topic), to: node)
      }
    }
  }

  /// Members whose node stopped beating: shown as reconnecting at once, removed after
  /// the grace period unless their session resumed on a live node meanwhile. A node
  /// that beats again (it was only slow) gets its members back, each with a snapshot.
  func expire(ofNodesOtherThan alive: Set<String>) async {
    let now = ContinuousClock.now
    let nodes = cluster.remotes.nodes
    let (silenced, revived, expired) = silentSince.withLock { silent in
      var silenced: [String] = []
      var expired: [String] = []
      let revived = silent.keys.filter { alive.contains($0) || !nodes.contains($0) }
      for node in revived { silent[node] = nil }
      for node in nodes where !alive.contains(node) {
        if let since = silent[node] {
          if now - since >= gracePeriod { expired.append(node) }
        } else {
          silent[node] = now
          silenced.append(node)
        }
      }
      for node in expired { silent[node] = nil }
      return (silenced, revived.filter { alive.contains($0) }, expired)
    }
    let stores = cluster.rooms.all.compactMap { room in room.store.map { (room, $0) } }
    for node in silenced {
      for member in cluster.remotes.sessions(on: node) {
        for (_, store) in stores { store.detach(member.session, from: member.id) }
      }
    }
    // A revision no history reaches: the member gets a snapshot.
    for node in revived {
      for member in cluster.remotes.sessions(on: node) {
        for (_, store) in stores where store.joinParams(of: member.session) != nil {
          store.reattach(member.session, connection: member.id, after: -1)
        }
      }
    }
    for node in expired {
      for member in cluster.remotes.sessions(on: node) {
        for (room, store) in stores {
          if await store.remove(member.session) { await room.storeEmptied(store) }
        }
      }
    }
    forgetSessionsInNoRoom(before: now - link.requestTimeout)
  }
}
