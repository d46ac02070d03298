import Foundation
import Logging
import StatecastJSON
import StatecastStorage
import StatecastTransport

/// A shared topic (a room) in a cluster: the same ``TopicHost`` to the registry whether
/// this process owns the room or follows it.
///
/// - As the **owner** (this node holds the room's lease), it runs the room's store in an
///   ordinary ``StoreHost``. Members on other processes are ordinary members of that
///   store: ``ForwardedMembers`` makes the store calls their messages ask for, with
///   their sockets' ids from ``RemoteConnections``, so presence is merged and every
///   member gets the same frames, revisions and order.
/// - As a **follower**, it forwards what its members do to the owner: joins and actions
///   as requests that wait for their answer (so a join's snapshot and an action's patch
///   are on the socket before the reply), the rest as messages. The owner's frames come
///   back through the ``ClusterRelay``.
///
/// Who runs the room is a ``RoomOwnership`` value: this type feeds it what happened and
/// carries out what it decides (ClusterRoomHost+Ownership.swift). Who is in the room is
/// the store's to know, wherever it runs: a follower keeps only what it needs to forward
/// its members there (their join, to join them again, and their socket), and an owner
/// keeps nothing of its own.
final class ClusterRoomHost: TopicHost {
  typealias Ownership = RoomOwnership<any TopicHost>

  /// A member on this process's sockets, of a room another process runs.
  struct LocalMember: Sendable {
    var request: JoinRequest
    var connection: ConnectionID?
    /// Its last socket, to attach it (as reconnecting) when this node takes over.
    var lastConnection: ConnectionID?
    /// Away (no socket) when its members joined the room's new owner: the owner does not
    /// know it, so it joins there when it comes back instead of resuming.
    var mustJoinOwner = false
    /// Its first attempt to join the room's new owner, after the room changed hands:
    /// its actions wait for it, or they would reach the owner before it is a member.
    var joining: Task<Bool, Never>?
  }

  struct Shared: Sendable {
    var ownership: Ownership
    /// This process's members, while another process runs the room, and while this one
    /// steps down (to join them to the next owner); empty while this one runs it: they
    /// are the store's members then.
    var local: [String: LocalMember] = [:]
    var closing: Task<Void, Never>?
    /// Requests that arrived while the room changes hands here, waiting for it to settle.
    var waiting: [CheckedContinuation<Void, Never>] = []
    /// Told of each request that starts waiting for the room to settle.
    var waitWatchers: [AsyncStream<Void>.Continuation] = []

    /// Hands `event` to the ownership; the members follow the room: into the store this
    /// process took over, or out of the store it gave up.
    mutating func handle(_ event: Ownership.Event, remotes: RemoteConnections) -> [Ownership.Action] {
      if case .leaseLost = event, let store = ownership.store {
        for member in store.memberSockets() {
          let session = member.request.session
          guard remotes.socket(of: session) == nil, member.connection.flatMap(remotes.address(of:)) == nil
          else { continue }
          local[session] = LocalMember(
            request: member.request, connection: member.connection, lastConnection: member.connection)
        }
      }
      let actions = ownership.handle(event)
      if ownership.isOwner { local = [:] }
      return actions
    }
  }

  let topic: String
  let route: TopicRoute
  let context: HostContext
  let cluster: ClusterParts
  var logger: Logger { cluster.link.logger }
  var link: ClusterLink { cluster.link }
  let shared: Locked<Shared>

  private init(
    topic: String, route: TopicRoute, context: HostContext, cluster: ClusterParts, state: Ownership.State
  ) {
    self.topic = topic
    self.route = route
    self.context = context
    self.cluster = cluster
    self.shared = Locked(Shared(ownership: Ownership(state)))
  }

  /// Opens the room in this process: as its owner if its lease is free (the store is
  /// made, a durable one from its journal), else as a follower of the lease's holder.
  static func open(_ route: TopicRoute, _ request: JoinRequest, context: HostContext, cluster: ClusterParts)
    async throws -> ClusterRoomHost
  {
    let link = cluster.link
    let holder = try await link.backplane.acquireLease(room: request.topic, ttl: link.leaseDuration)
    let state: Ownership.State
    if holder == link.id {
      do {
        state = .owner(try await route.makeHost(request, context: context))
      } catch {
        try? await link.backplane.releaseLease(room: request.topic)
        throw error
      }
    } else {
      state = .follower(owner: holder)
    }
    let host = ClusterRoomHost(
      topic: request.topic, route: route, context: context, cluster: cluster, state: state)
    cluster.rooms.register(host)
    return host
  }

  var isOwner: Bool {
    shared.withLock { $0.ownership.isOwner }
  }

  /// The room's store while this process owns it.
  var store: (any TopicHost)? {
    shared.withLock { $0.ownership.store }
  }

  // MARK: This process's members

  func attach(_ request: JoinRequest, connection: ConnectionID) async throws -> Bool {
    let (target, wasMember) = await whenSettled { shared -> (Ownership.Target, Bool) in
      let wasMember = shared.local[request.session] != nil
      if case .owner = shared.ownership.target {
        shared.local[request.session] = LocalMember(
          request: request, connection: connection, lastConnection: connection)
      }
      return (shared.ownership.target, wasMember)
    }
    // The session is on this process now, no longer on another one's socket.
    cluster.remotes.forget(session: request.session)
    switch target {
    case .closed, .handingOver:
      return false
    case .store(let inner):
      if try await inner.attach(request, connection: connection) { return true }
      await close()
      return false
    case .owner(let owner):
      do {
        try await forwardJoin(request, connection: connection, to: owner)
      } catch {
        // The member's join failed: it is no member here either, or it would be joined
        // to the room's next owner and sent its frames, and keep the room open.
        if !wasMember { _ = await remove(request.session) }
        throw error
      }
      return true
    }
  }

  func perform(_ action: JSON, key: String?, from session: String, creator: RoomCreator?)
    async throws(ProtocolError)
  {
    for _ in 0..<2 {
      switch await whenSettled({ $0.ownership.target }) {
      case .store(let inner):
        return try await inner.perform(action, key: key, from: session, creator: creator)
      case .owner(let owner):
        if let joining = shared.withLock({ $0.local[session]?.joining }) { _ = await joining.value }
        if try await forwardAction(action, key: key, from: session, creator: creator, to: owner) { return }
      case .closed, .handingOver:
        break
      }
    }
    throw ProtocolError(.unavailable, "\(topic) is moving to another process; try again")
  }

  func setPresence(_ meta: JSON, from session: String) throws(ProtocolError) {
    let target = shared.withLock { shared -> Ownership.Target? in
      if case .store = shared.ownership.target { return shared.ownership.target }
      return shared.local[session] == nil ? nil : shared.ownership.target
    }
    switch target {
    case nil: throw ProtocolError(.notJoined, "not joined to \(topic)")
    case .store(let inner): try inner.setPresence(meta, from: session)
    case .owner(let owner):
      link.post(.presence(node: link.id, room: topic, session: session, meta: meta), to: owner)
    case .closed, .handingOver: break
    }
  }

  /// A new room counts against the quota of the process that runs it, for its own
  /// members; actions forwarded by followers are counted by ``ForwardedMembers``.
  func claimsNewRoom() -> Bool {
    store?.claimsNewRoom() ?? false
  }

  func unclaimNewRoom() {
    store?.unclaimNewRoom()
  }

  func joinParams(of session: String) -> JSON? {
    let (target, params) = shared.withLock { ($0.ownership.target, $0.local[session]?.request.params) }
    guard case .store(let inner) = target else { return params }
    return inner.joinParams(of: session)
  }

  /// The store's, while this process owns the room; a room of another process cannot
  /// tell without asking it (the runtime renders it from its own mirror).
  func currentView(of session: String) -> RenderedTopic? {
    store?.currentView(of: session)
  }

  func savedState() async -> (state: JSON, revision: Int)? { nil }

  func savedStateVersion() -> Int? { nil }

  func isBehind(_ session: String) -> Bool {
    let (target, connection) = shared.withLock { ($0.ownership.target, $0.local[session]?.connection) }
    switch target {
    case .store(let inner): return inner.isBehind(session)
    case .owner, .handingOver, .closed:
      // Joining the owner again after lost frames: its snapshot is still to come.
      guard let connection else { return false }
      return cluster.relay.isAwaitingSnapshot(of: topic, on: connection)
    }
  }

  func detach(_ session: String, from connection: ConnectionID) {
    let target = shared.withLock { shared -> Ownership.Target? in
      if shared.ownership.isOwner || shared.ownership.isHandingOver {
        // Changing hands, `local` is what joins the next owner: kept current.
        if shared.local[session]?.connection == connection { shared.local[session]?.connection = nil }
        return shared.ownership.target
      }
      guard shared.local[session]?.connection == connection else { return nil }
      shared.local[session]?.connection = nil
      return shared.ownership.target
    }
    if target != nil { cluster.relay.forget(topic, on: connection) }
    switch target {
    case nil, .closed, .handingOver: break
    case .store(let inner): inner.detach(session, from: connection)
    case .owner(let owner):
      link.post(
        .detach(node: link.id, room: topic, session: session, connection: connection.rawValue), to: owner)
    }
  }

  func reattach(_ session: String, connection: ConnectionID, after rev: Int?) {
    let target = shared.withLock { shared -> Ownership.Target? in
      if shared.ownership.isOwner || shared.ownership.isHandingOver {
        // Changing hands, `local` is what joins the next owner: kept current.
        if shared.local[session] != nil {
          shared.local[session]?.connection = connection
          shared.local[session]?.lastConnection = connection
        }
        return shared.ownership.target
      }
      guard shared.local[session] != nil else { return nil }
      shared.local[session]?.connection = connection
      shared.local[session]?.lastConnection = connection
      return shared.ownership.target
    }
    switch target {
    case nil, .closed, .handingOver: break
    case .store(let inner): inner.reattach(session, connection: connection, after: rev)
    case .owner(let owner):
      let joining = shared.withLock { shared -> LocalMember? in
        guard let member = shared.local[session], member.mustJoinOwner else { return nil }
        shared.local[session]?.mustJoinOwner = false
        return member
      }
      if let joining { return rejoin([joining], to: owner) }
      link.post(
        .reattach(node: link.id, room: topic, session: session, connection: connection.rawValue, rev: rev),
        to: owner)
    }
  }

  @discardableResult func resync(_ session: String) -> Bool {
    let (target, connection) = shared.withLock { shared -> (Ownership.Target?, ConnectionID?) in
      if case .store = shared.ownership.target { return (shared.ownership.target, nil) }
      return (shared.local[session] == nil ? nil : shared.ownership.target, shared.local[session]?.connection)
    }
    switch target {
    case nil, .closed, .handingOver: return false
    case .store(let inner): return inner.resync(session)
    case .owner(let owner):
      // Frames of this room were dropped for the congested socket (see `ClusterRelay`):
      // the owner sends a fresh snapshot, as a local host does for its own members.
      guard let connection, cluster.relay.requestSnapshot(of: topic, on: connection) else { return false }
      link.post(.resync(node: link.id, room: topic, session: session), to: owner)
      return true
    }
  }

  func refresh(_ session: String) {
    store?.refresh(session)
  }

  func remove(_ session: String) async -> Bool {
    let removed = shared.withLock { shared -> (Ownership.Target, LocalMember?)? in
      // An owner's members are its store's; changing hands, `local` is what joins the
      // next owner, and a member that left is not in it.
      if case .store = shared.ownership.target { return (shared.ownership.target, nil) }
      guard let member = shared.local.removeValue(forKey: session) else { return nil }
      return (shared.ownership.target, member)
    }
    guard let (target, member) = removed else { return false }
    if let connection = member?.connection {
      cluster.relay.forget(topic, on: connection)
    } else if case .store(let inner) = target,
      let connection = inner.memberSockets().first(where: { $0.request.session == session })?.connection
    {
      // What the relay kept for the member while this process followed the room.
      cluster.relay.forget(topic, on: connection)
    }
    switch target {
    case .closed:
      return false
    case .store(let inner):
      // A session that moved to another node stays in the room through that node.
      guard cluster.remotes.socket(of: session) == nil, await inner.remove(session) else { return false }
      await storeEmptied(inner)
      return true
    case .owner, .handingOver:
      if case .owner(let owner) = target {
        link.post(.leave(node: link.id, room: topic, session: session), to: owner)
      }
      let remotes = cluster.remotes
      let actions = shared.withLock { shared -> [Ownership.Action] in
        guard shared.local.isEmpty else { return [] }
        return shared.handle(.lastMemberLeft, remotes: remotes)
      }
      await run(actions)
      return !actions.isEmpty
    }
  }

  /// The store's last member left (it closes itself): the room is done in this process,
  /// and its lease is released once the store's last commit is stored.
  func storeEmptied(_ store: any TopicHost) async {
    let remotes = cluster.remotes
    let actions = shared.withLock { shared -> [Ownership.Action] in
      guard case .store(let current) = shared.ownership.target, current === store else { return [] }
      return shared.handle(.lastMemberLeft, remotes: remotes)
    }
    await run(actions)
  }

  /// Closes the room in this process. An owner closes the store (a durable one's
  /// commits finish) and gives the lease up, so a follower takes over at once; a
  /// follower's members stay in the owner's room as reconnecting, to resume on
  /// another process.
  func close() async {
    await run(decide(.close))
    await waitUntilClosed()
  }

  func waitUntilClosed() async {
    await shared.withLock { $0.closing }?.value
  }
}

/// No process could be found to run a room in time.
struct ClusterUnavailable: Error, CustomStringConvertible {
  let topic: String
  var description: String { "no process of the cluster could open \(topic) in time" }
}
