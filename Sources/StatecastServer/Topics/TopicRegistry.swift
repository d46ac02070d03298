import Foundation
import Logging
import Statecast
import StatecastJSON
import StatecastStorage

/// The one owner of topic membership: which topics exist, which sessions are in each,
/// and which socket each member is on.
///
/// Every join, leave, action, resume and expiry goes through here. A shared topic (a
/// room) is made by its first join, exactly once however many browsers join at once,
/// and forgotten when its last member leaves or expires: a room nobody is in costs
/// nothing. A per-session topic lives from its session's join to its leave or expiry.
///
/// Thread safety: the tables below `lock` are guarded by it. The lock is never held
/// across an `await`; topic hosts never call back into the registry, so taking a host's
/// lock under this one cannot deadlock.
final class TopicRegistry: @unchecked Sendable {
  // Sendable: every mutable table is guarded by `lock` (see above).
  /// A shared topic: being made by its first join, or open.
  private enum Room {
    case opening(Task<any TopicHost, any Error>)
    case open(any TopicHost)
  }

  private let routes: [TopicRoute]
  private let sink: any FrameSink
  private let maxTopicsPerSession: Int
  private let logger: Logger
  /// Handed to each route opening a store: the sink, the storage, the stores' logger.
  private let context: HostContext
  private let metrics: ServerMetrics?
  /// This process in a cluster sharing rooms (`nil` when it runs alone): a room is then
  /// a ``ClusterRoomHost``, run here or followed from its owner.
  private let cluster: ClusterNode?
  /// How many new durable rooms a viewer and an address may create; `nil` for no limit.
  private let newRoomQuota: NewRoomQuota?
  /// The uploads of every session, whose files go when their session ends.
  let uploads: UploadRegistry?

  private let lock = NSLock()
  private var rooms: [String: Room] = [:]
  /// Session id → topic name → host: what each session has joined.
  private var joined: [String: [String: any TopicHost]] = [:]
  private var isShuttingDown = false

  init(
    routes: [TopicRoute], sink: any FrameSink, maxTopicsPerSession: Int,
    logger: Logger = Logger(label: LogSubsystem.topics.label),
    storeLogger: Logger = Logger(label: LogSubsystem.stores.label),
    storage: (any StateStorage)? = nil,
    metrics: ServerMetrics? = nil,
    cluster: ClusterNode? = nil,
    newRoomQuota: NewRoomQuota? = nil,
    uploads: UploadRegistry? = nil
  ) {
    self.uploads = uploads
    self.newRoomQuota = newRoomQuota
    self.metrics = metrics
    self.cluster = cluster
    self.routes = routes
    self.sink = sink
    self.maxTopicsPerSession = maxTopicsPerSession
    self.logger = logger
    self.context = HostContext(sink: sink, storage: storage, logger: storeLogger, metrics: metrics)
  }

  // MARK: Client messages

  /// `join`: finds the route, makes or finds the topic, adds the session as a member
  /// and queues the snapshot. Joining a joined topic queues a fresh snapshot.
  ///
  /// `restoring` is the saved state of a per-tab store whose session is being restored
  /// after a restart.
  func join(
    _ topic: String, params: JSON, session: String, viewer: Viewer, connection: ConnectionID,
    address: String = "", restoring: (state: JSON, revision: Int)? = nil, events: Bool = false
  ) async throws(ProtocolError) {
    guard let (route, parameters) = route(for: topic) else {
      throw ProtocolError(.unknownTopic, "no route matches \"\(topic)\"")
    }
    var request = JoinRequest(
      topic: topic, pathParameters: parameters, params: params, session: session, viewer: viewer)
    request.address = address
    request.receivesEvents = events
    guard route.canJoin(request) else {
      throw ProtocolError(.forbidden, "joining \(topic) is not allowed")
    }
    let host: any TopicHost
    do {
      if let joinedHost = self.host(topic, of: session),
        try await joinedHost.attach(request, connection: connection)
      {
        return
      }
      guard lock.withLock({ joined[session]?.count ?? 0 }) < maxTopicsPerSession else {
        throw ProtocolError(.forbidden, "a session may join at most \(maxTopicsPerSession) topics")
      }
      switch route.sharing {
      case .perSession:
        host = try await openPerSessionTopic(route, request, connection: connection, restoring: restoring)
      case .shared: host = try await joinRoom(route, request, connection: connection)
      }
    } catch let refused as JoinRefused {
      throw ProtocolError(.forbidden, refused.reason)
    } catch let error as ProtocolError {
      throw error
    } catch {
      logger.error(
        "opening a topic failed",
        metadata: ["topic": "\(topic)", "session": SessionID.logged(session), "error": "\(error)"])
      throw ProtocolError(.forbidden, "\(topic) could not be opened")
    }
    lock.withLock { joined[session, default: [:]][topic] = host }
  }

  /// `action`: hands the action to the topic the session joined. The first action to a
  /// durable room not stored yet counts against the new-room quota of `creator` (a
  /// viewer id and a peer address), if the server has one.
  func perform(
    _ action: JSON, key: String? = nil, on topic: String, from session: String,
    creator: RoomCreator? = nil
  ) async throws(ProtocolError) {
    guard let host = host(topic, of: session) else {
      throw ProtocolError(.notJoined, "not joined to \(topic)")
    }
    if let newRoomQuota, let creator, host.claimsNewRoom(),
      !newRoomQuota.admit(viewer: creator.viewer, address: creator.address)
    {
      host.unclaimNewRoom()
      throw NewRoomQuota.refusal
    }
    try await host.perform(action, key: key, from: session, creator: creator)
  }

  /// `leave`: ends the session's membership; the last member of a topic closes it.
  func leave(_ topic: String, session: String) async throws(ProtocolError) {
    let host = lock.withLock { joined[session]?.removeValue(forKey: topic) }
    guard let host else {
      throw ProtocolError(.notJoined, "not joined to \(topic)")
    }
    await remove(session, from: host)
  }

  /// `presence`: what the member publishes about itself on `topic`.
  func setPresence(_ meta: JSON, on topic: String, from session: String) throws(ProtocolError) {
    guard let host = host(topic, of: session) else {
      throw ProtocolError(.notJoined, "not joined to \(topic)")
    }
    try host.setPresence(meta, from: session)
  }

  /// Whether the member waits for a snapshot on `topic` (see ``TopicHost/isBehind(_:)``).
  func isBehind(_ session: String, on topic: String) -> Bool {
    host(topic, of: session)?.isBehind(session) ?? false
  }

  // MARK: Sockets coming and going

  /// The session's socket `connection` is gone; its memberships wait for a resume.
  func detach(_ session: String, from connection: ConnectionID) {
    for host in hosts(of: session) { host.detach(session, from: connection) }
  }

  /// The session resumed on `connection`: each topic listed in `revisions` queues what
  /// the client missed after its revision; the others just stream to the new socket.
  func reattach(_ session: String, to connection: ConnectionID, revisions: [String: Int]) {
    for host in hosts(of: session) {
      host.reattach(session, connection: connection, after: revisions[host.topic])
    }
  }

  /// The session's socket drained after congestion: topics that skipped patches to it
  /// queue one fresh snapshot.
  func resync(_ session: String) {
    var collapsed = 0
    for host in hosts(of: session) where host.resync(session) { collapsed += 1 }
    if collapsed > 0 { metrics?.collapsed(collapsed) }
  }

  /// The session expired: it leaves every topic.
  func removeSession(_ session: String) async {
    let hosts = lock.withLock { joined.removeValue(forKey: session).map { Array($0.values) } ?? [] }
    for host in hosts { await remove(session, from: host) }
    uploads?.sessionEnded(session)
  }

  // MARK: Saved sessions

  /// The topics the session has joined, by name (what ``SessionSaver`` saves).
  func joinedHosts(of session: String) -> [String: any TopicHost] {
    lock.withLock { joined[session] ?? [:] }
  }

  // MARK: Shutdown

  /// From now on joins are refused, so that no store opens after the sweep.
  func beginShutdown() {
    lock.withLock { isShuttingDown = true }
  }

  /// Closes every topic's store (cancelling its effects) and forgets every membership.
  func closeAll() async {
    let (members, opening) = lock.withLock {
      isShuttingDown = true
      var hosts: [ObjectIdentifier: any TopicHost] = [:]
      for topics in joined.values {
        for host in topics.values { hosts[ObjectIdentifier(host)] = host }
      }
      var opening: [Task<any TopicHost, any Error>] = []
      for room in rooms.values {
        switch room {
        case .open(let host): hosts[ObjectIdentifier(host)] = host
        case .opening(let task): opening.append(task)
        }
      }
      joined = [:]
      rooms = [:]
      return (Array(hosts.values), opening)
    }
    await withTaskGroup(of: Void.self) { closing in
      for host in members { closing.addTask { await host.close() } }
      for task in opening { closing.addTask { await (try? await task.value)?.close() } }
    }
  }

  /// How many memberships there are (a session in a topic).
  var memberCount: Int { lock.withLock { joined.values.reduce(0) { $0 + $1.count } } }

  /// How many shared topics exist (open or being made).
  var roomCount: Int { lock.withLock { rooms.count } }
  /// The names of the shared topics (rooms) open now.
  var roomNames: [String] { lock.withLock { Array(rooms.keys) } }

  // MARK: Internals

  func host(_ topic: String, of session: String) -> (any TopicHost)? {
    lock.withLock { joined[session]?[topic] }
  }

  private func hosts(of session: String) -> [any TopicHost] {
    lock.withLock { joined[session].map { Array($0.values) } ?? [] }
  }

  /// The pattern of the route serving `topic` (`room/:id`), as `/metrics` labels actions.
  func routePattern(of topic: String) -> String? {
    route(for: topic)?.0.pattern.description
  }

  private func route(for topic: String) -> (TopicRoute, [String: String])? {
    for route in routes {
      if let parameters = route.pattern.match(topic) { return (route, parameters) }
    }
    return nil
  }

  private func remove(_ session: String, from host: any TopicHost) async {
    if await host.remove(session) { forgetRoom(host) }
  }

  private func openPerSessionTopic(
    _ route: TopicRoute, _ request: JoinRequest, connection: ConnectionID,
    restoring: (state: JSON, revision: Int)?
  ) async throws -> any TopicHost {
    var context = self.context
    context.restoring = restoring
    let host = try await route.makeHost(request, context: context)
    // A store opened while the server began to stop would outlive the shutdown's sweep.
    if lock.withLock({ isShuttingDown }) {
      await host.close()
      throw ProtocolError(.forbidden, "the server is shutting down")
    }
    _ = try await host.attach(request, connection: connection)
    return host
  }

  /// Adds the session to the room of that name, made once even when many browsers join
  /// at once, and made anew if the last member left while this join waited.
  private func joinRoom(_ route: TopicRoute, _ request: JoinRequest, connection: ConnectionID) async throws
    -> any TopicHost
  {
    var context = self.context
    context.opensRoom = true
    context.isClustered = cluster != nil
    while true {
      let room = try lock.withLock { () throws(ProtocolError) -> Room in
        if isShuttingDown { throw ProtocolError(.forbidden, "the server is shutting down") }
        if let existing = rooms[request.topic] { return existing }
        let made = Room.opening(
          Task { [context, cluster] in
            if let cluster {
              return try await ClusterRoomHost.open(route, request, context: context, cluster: cluster.parts)
            }
            return try await route.makeHost(request, context: context)
          })
        rooms[request.topic] = made
        return made
      }
      let host: any TopicHost
      switch room {
      case .open(let open):
        host = open
      case .opening(let task):
        do {
          host = try await task.value
        } catch {
          lock.withLock {
            if case .opening(let current) = rooms[request.topic], current == task {
              rooms[request.topic] = nil
            }
          }
          throw error
        }
        lock.withLock {
          if case .opening(let current) = rooms[request.topic], current == task {
            rooms[request.topic] = .open(host)
          }
        }
      }
      if try await host.attach(request, connection: connection) { return host }
      // It closed when its last member left: once it has finished closing (a durable
      // room's last commits are on disk), forget it and open it anew.
      await host.waitUntilClosed()
      forgetRoom(host)
    }
  }

  /// Drops the room entry of a host that closed, unless a new room took its name.
  private func forgetRoom(_ host: any TopicHost) {
    lock.withLock {
      if case .open(let current) = rooms[host.topic], current === host { rooms[host.topic] = nil }
    }
  }
}
