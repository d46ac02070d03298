import Foundation
import Logging
import StatecastJSON
import StatecastStorage

/// A shared topic (a room) in a cluster: the same ``TopicHost`` to the registry whether
/// this process owns the room or follows it.
///
/// - As the **owner** (this node holds the room's lease), it runs the room's store in an
///   ordinary ``StoreHost``, whose members are this process's sessions and, through
///   ``RemoteConnections``, the members on other nodes: presence is merged because every
///   member is in that one host, and every member gets the same frames, revisions and
///   order.
/// - As a **follower**, it keeps only its own members and forwards what they do to the
///   owner: joins and actions as requests that wait for their answer (so a join's
///   snapshot and an action's patch are on the socket before the reply), the rest as
///   messages. The owner's frames come back through the ``ClusterNode``'s inbox.
///
/// Roles change when ownership does: a follower whose owner stopped renewing its lease
/// takes the room over from the durable log (``checkOwner()``), every member getting a
/// fresh snapshot at the new owner's revisions; an owner that lost its lease steps down
/// and follows the new owner.
///
/// Thread safety: the fields below `lock` are guarded by it; it is never held across an
/// `await` nor while calling the inner host.
final class ClusterRoomHost: TopicHost, @unchecked Sendable {
  private enum Role {
    case owner(any TopicHost)
    case follower(owner: String)
  }

  /// A member on this process's sockets.
  private struct LocalMember {
    var request: JoinRequest
    var connection: ConnectionID?
    /// Its last socket, to attach it (as reconnecting) when this node takes over.
    var lastConnection: ConnectionID
  }

  /// A member on another node's sockets (owner only).
  private struct RemoteMember {
    var node: String
    var connection: ConnectionID
    /// Since when its node has stopped beating.
    var orphanedSince: ContinuousClock.Instant?
  }

  let topic: String
  private let route: TopicRoute
  private let context: HostContext
  private let node: ClusterNode
  private var logger: Logger { node.logger }

  private let lock = NSLock()
  private var role: Role
  private var local: [String: LocalMember] = [:]
  private var remote: [String: RemoteMember] = [:]
  private var isClosed = false
  private var isChangingRole = false
  private var closing: Task<Void, Never>?

  private init(topic: String, route: TopicRoute, context: HostContext, node: ClusterNode, role: Role) {
    self.topic = topic
    self.route = route
    self.context = context
    self.node = node
    self.role = role
  }

  /// Opens the room in this process: as its owner if its lease is free (the store is
  /// made, a durable one from its journal), else as a follower of the lease's holder.
  static func open(_ route: TopicRoute, _ request: JoinRequest, context: HostContext, node: ClusterNode)
    async throws -> ClusterRoomHost
  {
    let holder = try await node.backplane.acquireLease(room: request.topic, ttl: node.leaseDuration)
    let role: Role
    if holder == node.id {
      do {
        role = .owner(try await route.makeHost(request, context: context))
      } catch {
        try? await node.backplane.releaseLease(room: request.topic)
        throw error
      }
    } else {
      role = .follower(owner: holder)
    }
    let host = ClusterRoomHost(topic: request.topic, route: route, context: context, node: node, role: role)
    node.register(host)
    return host
  }

  var isOwner: Bool {
    lock.withLock { if case .owner = role { true } else { false } }
  }

  // MARK: This process's members

  func attach(_ request: JoinRequest, connection: ConnectionID) async throws -> Bool {
    let role = lock.withLock { () -> Role? in
      guard !isClosed else { return nil }
      local[request.session] = LocalMember(
        request: request, connection: connection, lastConnection: connection)
      if let moved = remote.removeValue(forKey: request.session) { node.remotes.forget(moved.connection) }
      return self.role
    }
    switch role {
    case nil:
      return false
    case .owner(let inner):
      if try await inner.attach(request, connection: connection) { return true }
      await close()
      return false
    case .follower(let owner):
      try await forwardJoin(request, connection: connection, to: owner)
      return true
    }
  }

  func perform(_ action: JSON, key: String?, from session: String, creator: RoomCreator?)
    async throws(ProtocolError)
  {
    for _ in 0..<2 {
      switch lock.withLock({ role }) {
      case .owner(let inner):
        return try await inner.perform(action, key: key, from: session, creator: creator)
      case .follower(let owner):
        let outcome = await node.request(to: owner) { ref in
          .action(
            ref: ref, node: node.id, room: topic, session: session, action: action, key: key, creator: creator
          )
        }
        switch outcome {
        case .ok:
          return
        case .failed(let answer) where answer == .notOwner:
          await checkOwner()
        case .failed(let answer):
          throw ProtocolError(ProtocolError.Code(rawValue: answer.code) ?? .unavailable, answer.message)
        case .noAnswer:
          throw ProtocolError(
            .unavailable, "the process that runs \(topic) did not answer in time; try again")
        }
      }
    }
    throw ProtocolError(.unavailable, "\(topic) is moving to another process; try again")
  }

  func setPresence(_ meta: JSON, from session: String) throws(ProtocolError) {
    let role = lock.withLock { local[session] == nil ? nil : self.role }
    switch role {
    case nil: throw ProtocolError(.notJoined, "not joined to \(topic)")
    case .owner(let inner): try inner.setPresence(meta, from: session)
    case .follower(let owner):
      node.post(.presence(node: node.id, room: topic, session: session, meta: meta), to: owner)
    }
  }

  /// A new room counts against the quota of the process that runs it, for its own
  /// members; actions forwarded by followers are not counted.
  func claimsNewRoom() -> Bool {
    guard case .owner(let inner) = lock.withLock({ role }) else { return false }
    return inner.claimsNewRoom()
  }

  func unclaimNewRoom() {
    guard case .owner(let inner) = lock.withLock({ role }) else { return }
    inner.unclaimNewRoom()
  }

  func joinParams(of session: String) -> JSON? {
    lock.withLock { local[session]?.request.params }
  }

  func savedState() -> (state: JSON, revision: Int)? { nil }

  func savedStateVersion() -> Int? { nil }

  func isBehind(_ session: String) -> Bool {
    let (role, connection) = lock.withLock { () -> (Role, ConnectionID?) in
      (self.role, local[session]?.connection)
    }
    switch role {
    case .owner(let inner): return inner.isBehind(session)
    case .follower:
      // Joining the owner again after lost frames: its snapshot is still to come.
      guard let connection else { return false }
      return node.isAwaitingSnapshot(of: topic, on: connection)
    }
  }

  func detach(_ session: String, from connection: ConnectionID) {
    let role = lock.withLock { () -> Role? in
      guard local[session]?.connection == connection else { return nil }
      local[session]?.connection = nil
      return self.role
    }
    if role != nil { node.forgetRelay(of: topic, on: connection) }
    switch role {
    case nil: break
    case .owner(let inner): inner.detach(session, from: connection)
    case .follower(let owner):
      node.post(
        .detach(node: node.id, room: topic, session: session, connection: connection.rawValue), to: owner)
    }
  }

  func reattach(_ session: String, connection: ConnectionID, after rev: Int?) {
    let role = lock.withLock { () -> Role? in
      guard local[session] != nil else { return nil }
      local[session]?.connection = connection
      local[session]?.lastConnection = connection
      return self.role
    }
    switch role {
    case nil: break
    case .owner(let inner): inner.reattach(session, connection: connection, after: rev)
    case .follower(let owner):
      node.post(
        .reattach(node: node.id, room: topic, session: session, connection: connection.rawValue, rev: rev),
        to: owner)
    }
  }

  @discardableResult func resync(_ session: String) -> Bool {
    let (current, connection) = lock.withLock { () -> (Role?, ConnectionID?) in
      (local[session] == nil ? nil : role, local[session]?.connection)
    }
    switch current {
    case nil: return false
    case .owner(let inner): return inner.resync(session)
    case .follower(let owner):
      // Frames of this room were dropped for the congested socket (see `ClusterNode`):
      // the owner sends a fresh snapshot, as a local host does for its own members.
      guard let connection, node.requestSnapshot(of: topic, on: connection) else { return false }
      node.post(.resync(node: node.id, room: topic, session: session), to: owner)
      return true
    }
  }

  func refresh(_ session: String) {
    if case .owner(let inner) = lock.withLock({ role }) { inner.refresh(session) }
  }

  func remove(_ session: String) async -> Bool {
    let (role, isLast, movedAway, connection) = lock.withLock {
      () -> (Role?, Bool, Bool, ConnectionID?) in
      guard let member = local.removeValue(forKey: session) else { return (nil, false, false, nil) }
      return (self.role, local.isEmpty, remote[session] != nil, member.connection)
    }
    if let connection { node.forgetRelay(of: topic, on: connection) }
    switch role {
    case nil:
      return false
    case .owner(let inner):
      // A session that moved to another node stays in the room through that node.
      guard !movedAway, await inner.remove(session) else { return false }
      finishClosing(after: inner)
      return true
    case .follower(let owner):
      node.post(.leave(node: node.id, room: topic, session: session), to: owner)
      guard isLast else { return false }
      let closes = lock.withLock { () -> Bool in
        guard local.isEmpty, !isClosed else { return false }
        isClosed = true
        return true
      }
      if closes { node.unregister(self) }
      return closes
    }
  }

  /// Closes the room in this process. An owner closes the store (a durable one's
  /// commits finish) and gives the lease up, so a follower takes over at once; a
  /// follower's members stay in the owner's room as reconnecting, to resume on
  /// another process.
  func close() async {
    let (role, members) = lock.withLock { () -> (Role?, [String: LocalMember]) in
      guard !isClosed else { return (nil, [:]) }
      isClosed = true
      return (self.role, local)
    }
    switch role {
    case nil: break
    case .owner(let inner):
      finishClosing(after: inner, closingIt: true)
    case .follower(let owner):
      node.unregister(self)
      for (session, member) in members {
        guard let connection = member.connection else { continue }
        node.post(
          .detach(node: node.id, room: topic, session: session, connection: connection.rawValue), to: owner)
      }
    }
    await waitUntilClosed()
  }

  func waitUntilClosed() async {
    await lock.withLock { closing }?.value
  }

  /// The owner's store is closing (or closed): the room is done in this process, and its
  /// lease is released once the store's last commit is stored.
  private func finishClosing(after inner: any TopicHost, closingIt: Bool = false) {
    let node = self.node
    let topic = self.topic
    lock.withLock {
      isClosed = true
      closing = Task {
        if closingIt { await inner.close() } else { await inner.waitUntilClosed() }
        try? await node.backplane.releaseLease(room: topic)
      }
    }
    node.unregister(self)
  }

  // MARK: Members on other nodes (owner)

  /// A member on `node` joins; returns `false` if this process does not own the room.
  func attachRemote(_ request: JoinRequest, node other: String, connection: UInt64) async -> Bool {
    let id = node.remotes.id(for: .init(node: other, connection: connection))
    let inner = lock.withLock { () -> (any TopicHost)? in
      guard !isClosed, case .owner(let inner) = role else { return nil }
      if let previous = remote[request.session], previous.connection != id {
        node.remotes.forget(previous.connection)
      }
      remote[request.session] = RemoteMember(node: other, connection: id)
      return inner
    }
    guard let inner, (try? await inner.attach(request, connection: id)) == true else { return false }
    return true
  }

  /// A member's action from `node`: `nil` when done, else what went wrong.
  /// A first change of a room not stored yet counts against the quota of the member's
  /// `creator` here, where the room runs, as a local member's does in the registry.
  func performRemote(_ action: JSON, key: String?, from session: String, creator: RoomCreator?) async
    -> ClusterMessage.Answer?
  {
    guard case .owner(let inner) = lock.withLock({ role }) else { return .notOwner }
    if let quota = node.newRoomQuota, let creator, inner.claimsNewRoom(),
      !quota.admit(viewer: creator.viewer, address: creator.address)
    {
      inner.unclaimNewRoom()
      return ClusterMessage.Answer(
        code: NewRoomQuota.refusal.code.rawValue, message: NewRoomQuota.refusal.message)
    }
    do throws(ProtocolError) {
      try await inner.perform(action, key: key, from: session, creator: creator)
      return nil
    } catch {
      return ClusterMessage.Answer(code: error.code.rawValue, message: error.message)
    }
  }

  func detachRemote(_ session: String, node other: String, connection: UInt64) {
    let id = node.remotes.id(for: .init(node: other, connection: connection))
    guard let inner = ownerInner(ifMember: session, on: id) else { return }
    inner.detach(session, from: id)
  }

  func reattachRemote(_ session: String, node other: String, connection: UInt64, after rev: Int?) {
    let id = node.remotes.id(for: .init(node: other, connection: connection))
    let inner = lock.withLock { () -> (any TopicHost)? in
      guard case .owner(let inner) = role, remote[session] != nil else { return nil }
      remote[session] = RemoteMember(node: other, connection: id)
      return inner
    }
    inner?.reattach(session, connection: id, after: rev)
  }

  /// The member's socket on `other` drained after frames of this room were dropped for
  /// it there: it gets a fresh snapshot.
  func resyncRemote(_ session: String, node other: String) {
    guard let inner = ownerInner(ifMemberOn: other, session) else { return }
    inner.refresh(session)
  }

  func setPresenceRemote(_ meta: JSON, from session: String, node other: String) {
    guard let inner = ownerInner(ifMemberOn: other, session) else { return }
    try? inner.setPresence(meta, from: session)
  }

  /// A member on `node` left; ignored if the session has moved to another node since.
  func removeRemote(_ session: String, node other: String) async {
    let inner = lock.withLock { () -> (any TopicHost)? in
      guard case .owner(let inner) = role, let member = remote[session], member.node == other else {
        return nil
      }
      remote[session] = nil
      node.remotes.forget(member.connection)
      return inner
    }
    guard let inner, await inner.remove(session) else { return }
    finishClosing(after: inner)
  }

  /// Members whose node stopped beating: shown as reconnecting at once, removed after
  /// the grace period unless their session resumed on a live node meanwhile. A node
  /// that beats again (it was only slow) gets its members back, each with a snapshot.
  func expireMembers(ofNodesOtherThan alive: Set<String>) async {
    let now = ContinuousClock.now
    let (inner, orphaned, revived, expired) = lock.withLock {
      () -> ((any TopicHost)?, [(String, ConnectionID)], [(String, ConnectionID)], [(String, String)]) in
      guard case .owner(let inner) = role else { return (nil, [], [], []) }
      var orphaned: [(String, ConnectionID)] = []
      var revived: [(String, ConnectionID)] = []
      var expired: [(String, String)] = []
      for (session, member) in remote {
        switch (alive.contains(member.node), member.orphanedSince) {
        case (true, nil):
          break
        case (true, .some):
          remote[session]?.orphanedSince = nil
          revived.append((session, member.connection))
        case (false, nil):
          remote[session]?.orphanedSince = now
          orphaned.append((session, member.connection))
        case (false, .some(let since)):
          if now - since >= node.gracePeriod { expired.append((session, member.node)) }
        }
      }
      return (inner, orphaned, revived, expired)
    }
    guard let inner else { return }
    for (session, connection) in orphaned { inner.detach(session, from: connection) }
    // A revision no history reaches: the member gets a snapshot.
    for (session, connection) in revived { inner.reattach(session, connection: connection, after: -1) }
    for (session, other) in expired { await removeRemote(session, node: other) }
  }

  private func ownerInner(ifMember session: String, on id: ConnectionID) -> (any TopicHost)? {
    lock.withLock {
      guard case .owner(let inner) = role, remote[session]?.connection == id else { return nil }
      return inner
    }
  }

  private func ownerInner(ifMemberOn other: String, _ session: String) -> (any TopicHost)? {
    lock.withLock {
      guard case .owner(let inner) = role, remote[session]?.node == other else { return nil }
      return inner
    }
  }

  // MARK: Ownership

  /// Follower: finds out who owns the room now. When nobody does (the owner died and
  /// its lease ran out, or it closed the room), this node takes the lease and runs the
  /// store from the durable log; when another node does, its members join it there.
  func checkOwner() async {
    guard
      let current = lock.withLock({ () -> String? in
        guard !isClosed, !isChangingRole, case .follower(let owner) = role else { return nil }
        isChangingRole = true
        return owner
      })
    else { return }
    defer { lock.withLock { isChangingRole = false } }
    do {
      var holder = try await node.backplane.leaseHolder(room: topic)
      if holder == current { return }
      if holder == nil || holder == node.id {
        holder = try await node.backplane.acquireLease(room: topic, ttl: node.leaseDuration)
        // Another node may have taken it a moment earlier: ask again who holds it now.
        if holder != node.id { holder = try await node.backplane.leaseHolder(room: topic) ?? holder }
      }
      guard let holder else { return }
      if holder == node.id {
        try await takeOver()
      } else {
        follow(holder)
      }
      // Whatever still waits on the former owner will not be answered.
      node.abandonRequests(to: current)
    } catch {
      logger.warning(
        "the owner of a room could not be found", metadata: ["topic": "\(topic)", "error": "\(error)"])
    }
  }

  /// This node holds the lease now: opens the store and moves every member here.
  private func takeOver() async throws {
    let members = lock.withLock { local }
    guard let first = members.values.first else {
      try? await node.backplane.releaseLease(room: topic)
      return
    }
    let inner: any TopicHost
    do {
      inner = try await route.makeHost(first.request, context: context)
    } catch {
      try? await node.backplane.releaseLease(room: topic)
      throw error
    }
    for member in members.values {
      _ = try? await inner.attach(member.request, connection: member.lastConnection)
      if member.connection == nil { inner.detach(member.request.session, from: member.lastConnection) }
    }
    let stillOpen = lock.withLock { () -> Bool in
      guard !isClosed else { return false }
      role = .owner(inner)
      return true
    }
    guard stillOpen else {
      await inner.close()
      try? await node.backplane.releaseLease(room: topic)
      return
    }
    logger.info("this process took a room over", metadata: ["topic": "\(topic)"])
  }

  /// Another node owns the room now: this process's members join it there.
  private func follow(_ owner: String) {
    let members = lock.withLock { () -> [LocalMember] in
      role = .follower(owner: owner)
      return Array(local.values)
    }
    logger.info("a room moved to another process", metadata: ["topic": "\(topic)", "owner": "\(owner)"])
    rejoin(members, to: owner)
  }

  /// Owner that lost its lease (it was cut off from the database for longer than the
  /// lease): its store closes, and its members follow whoever holds the room now.
  func stepDown() async {
    guard
      let inner = lock.withLock({ () -> (any TopicHost)? in
        guard case .owner(let inner) = role else { return nil }
        return inner
      })
    else { return }
    await inner.close()
    let holder = try? await node.backplane.leaseHolder(room: topic)
    lock.withLock {
      for (_, member) in remote { node.remotes.forget(member.connection) }
      remote = [:]
      role = .follower(owner: holder ?? "")
    }
    if let holder { follow(holder) } else { await checkOwner() }
  }

  /// Follower whose messages may have been lost: its members join the owner again, each
  /// getting a fresh snapshot.
  func resynchronize() async {
    let (owner, members, followers) = lock.withLock { () -> (String?, [LocalMember], Set<String>) in
      switch role {
      case .follower(let owner): return (owner, Array(local.values), [])
      case .owner: return (nil, [], Set(remote.values.map(\.node)))
      }
    }
    if let owner {
      node.awaitSnapshot(of: topic, on: members.compactMap(\.connection))
      rejoin(members, to: owner)
    }
    // Owner: leaves sent while this node was not listening are lost; each follower
    // with members here sends its list, and the ones it no longer has are removed.
    for follower in followers { node.post(.census(node: node.id, room: topic), to: follower) }
  }

  /// Follower: `owner` asks which members this node has in the room.
  func reportMembers(to owner: String) {
    let sessions = lock.withLock { () -> [String]? in
      guard case .follower(let current) = role, current == owner else { return nil }
      return Array(local.keys)
    }
    if let sessions { node.post(.members(node: node.id, room: topic, sessions: sessions), to: owner) }
  }

  /// Owner: `other`'s members of the room are `sessions`; the ones of `other` held here
  /// but not in the list left while their `leave` was lost, and are removed now.
  func reconcileRemote(node other: String, sessions: Set<String>) async {
    let gone = lock.withLock { () -> [String] in
      guard case .owner = role else { return [] }
      return remote.filter { $0.value.node == other && !sessions.contains($0.key) }.map(\.key)
    }
    for session in gone { await removeRemote(session, node: other) }
  }

  /// Follower: a patch to the member on `connection` did not follow the last one it
  /// got (frames were lost): it joins the owner again for a fresh snapshot.
  func missedFrames(on connection: ConnectionID) {
    let (owner, member) = lock.withLock { () -> (String?, LocalMember?) in
      guard case .follower(let owner) = role else { return (nil, nil) }
      return (owner, local.values.first { $0.connection == connection })
    }
    if let owner, let member { rejoin([member], to: owner) }
  }

  /// Joins each member to the owner again (a snapshot follows). One the owner cannot be
  /// reached for is tried again every second while it is still here on the same socket.
  private func rejoin(_ members: [LocalMember], to owner: String) {
    for member in members {
      guard let connection = member.connection else { continue }
      Task {
        var owner = owner
        while true {
          do {
            try await forwardJoin(member.request, connection: connection, to: owner)
            return
          } catch is ClusterUnavailable {
            let next = lock.withLock { () -> String? in
              guard !isClosed, local[member.request.session]?.connection == connection,
                case .follower(let owner) = role
              else { return nil }
              return owner
            }
            guard let next else { return }
            owner = next
            try? await Task.sleep(for: .seconds(1))
          } catch {
            logger.warning(
              "a member could not join a room's new owner",
              metadata: ["topic": "\(topic)", "session": SessionID.logged(member.request.session)])
            node.endSnapshotWait(of: topic, on: connection)
            return
          }
        }
      }
    }
  }

  /// Joins the member at the owner, which queues its snapshot before answering. A room
  /// changing hands meanwhile (the owner is gone, or does not have it) is looked up again
  /// until the request's deadline.
  private func forwardJoin(_ request: JoinRequest, connection: ConnectionID, to owner: String) async throws {
    var owner = owner
    let deadline = ContinuousClock.now + node.requestTimeout
    while true {
      let outcome = await node.request(to: owner) { ref in
        .join(
          ref: ref, node: node.id, connection: connection.rawValue,
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
        switch lock.withLock({ role }) {
        case .owner(let inner):
          guard try await inner.attach(request, connection: connection) else {
            throw ClusterUnavailable(topic: topic)
          }
          return
        case .follower(let next):
          owner = next
        }
      }
    }
  }
}

/// No process could be found to run a room in time.
struct ClusterUnavailable: Error, CustomStringConvertible {
  let topic: String
  var description: String { "no process of the cluster could open \(topic) in time" }
}
