import Foundation
import Logging
import StatecastJSON
import StatecastStorage

/// This process as a member of a cluster of Statecast servers sharing rooms through a
/// ``ClusterBackplane`` (PostgreSQL): the rooms it hosts (as their owner or as a
/// follower), its messages to other nodes, and the answers it waits for.
///
/// Two loops run while the server runs. The *inbox* handles what other nodes send, in
/// order: frames for this process's sockets, answers to forwarded requests, and (for
/// rooms this node owns) other nodes' members joining, acting and leaving. The *upkeep*
/// loop renews this node's leases, takes over rooms whose owner stopped renewing
/// (failover), follows a room to its new owner, and marks members of nodes that stopped
/// beating as reconnecting, removing them after the session grace period.
///
/// Thread safety: the tables below `lock` are guarded by it; it is never held across an
/// `await` or a call into a room host.
final class ClusterNode: @unchecked Sendable {
  /// What a forwarded request came back with.
  enum Outcome: Sendable, Equatable {
    case ok
    case failed(ClusterMessage.Answer)
    /// No answer in time: the owner died, or the backplane is unreachable.
    case noAnswer
  }

  let backplane: any ClusterBackplane
  let remotes = RemoteConnections()
  /// How long a lease lasts unless renewed; a dead owner's rooms are taken over after
  /// at most this (plus one upkeep round).
  let leaseDuration: Duration
  /// How long a forwarded request waits for its answer.
  let requestTimeout: Duration
  /// How long the members of a dead node stay (as reconnecting) before they are removed.
  let gracePeriod: Duration
  /// Counts the new rooms this process runs for members on other processes, as the
  /// topic registry counts those of its own members.
  let newRoomQuota: NewRoomQuota?
  let logger: Logger

  private let lock = NSLock()
  private var rooms: [String: ClusterRoomHost] = [:]
  /// Requests awaiting their answer, with the node each went to.
  private var pending: [Int64: (node: String, continuation: CheckedContinuation<Outcome, Never>)] = [:]
  private var nextRef: Int64 = 0
  private var outboxes: [String: Outbox] = [:]
  private var tasks: [Task<Void, Never>] = []
  /// Keeps the frames relayed to this process's sockets free of revision gaps.
  private var relayGuard = RelayGuard()

  var id: String { backplane.node }

  init(
    backplane: any ClusterBackplane, leaseDuration: Duration = .seconds(2),
    requestTimeout: Duration = .seconds(5),
    gracePeriod: Duration, newRoomQuota: NewRoomQuota? = nil, logger: Logger
  ) {
    self.backplane = backplane
    self.newRoomQuota = newRoomQuota
    self.leaseDuration = leaseDuration
    self.requestTimeout = requestTimeout
    self.gracePeriod = gracePeriod
    self.logger = logger
  }

  /// Starts the inbox and upkeep loops.
  func start() {
    let inbox = Task { [weak self, backplane] in
      for await event in backplane.inbox {
        guard let self else { return }
        await self.handle(event)
      }
    }
    let upkeep = Task { [weak self] in
      // The first round at once: other nodes see this one alive before its members join.
      while !Task.isCancelled {
        guard let self else { return }
        await self.keepUp()
        try? await Task.sleep(for: self.leaseDuration / 4)
      }
    }
    lock.withLock { tasks += [inbox, upkeep] }
  }

  /// Stops both loops; answers still awaited end as ``Outcome/noAnswer``.
  func stop() {
    let (tasks, waiting) = lock.withLock {
      defer { (self.tasks, pending) = ([], [:]) }
      return (self.tasks, Array(pending.values))
    }
    for task in tasks { task.cancel() }
    for request in waiting { request.continuation.resume(returning: .noAnswer) }
  }

  // MARK: Rooms

  func register(_ host: ClusterRoomHost) {
    lock.withLock { rooms[host.topic] = host }
  }

  func unregister(_ host: ClusterRoomHost) {
    lock.withLock {
      if rooms[host.topic] === host { rooms[host.topic] = nil }
    }
  }

  private func room(_ topic: String) -> ClusterRoomHost? {
    lock.withLock { rooms[topic] }
  }

  /// The members on `connections` are joining `topic`'s owner again: the room's patches
  /// to them are dropped until their snapshot comes.
  func awaitSnapshot(of topic: String, on connections: [ConnectionID]) {
    lock.withLock {
      for connection in connections { relayGuard.awaitSnapshot(of: topic, on: connection.rawValue) }
    }
  }

  /// The member on `connection` left `topic`, or its socket is gone.
  func forgetRelay(of topic: String, on connection: ConnectionID) {
    lock.withLock { relayGuard.forget(topic, on: connection.rawValue) }
  }

  /// Whether the member on `connection` waits for a fresh snapshot of `topic`: its
  /// replies wait too, or they would overtake their effect.
  /// Whether to ask `topic`'s owner for the snapshot the member on `connection` waits
  /// for (frames were dropped for its congested socket): once per wait.
  func requestSnapshot(of topic: String, on connection: ConnectionID) -> Bool {
    lock.withLock { relayGuard.requestSnapshot(of: topic, on: connection.rawValue) }
  }

  func isAwaitingSnapshot(of topic: String, on connection: ConnectionID) -> Bool {
    lock.withLock { relayGuard.isAwaitingSnapshot(of: topic, on: connection.rawValue) }
  }

  /// Called with a socket whose member stopped waiting for a snapshot (it came, or the
  /// member could not join again), so that the replies held for it go out. Set once,
  /// before the server starts.
  var onSnapshotWaitEnded: (@Sendable (ConnectionID) -> Void)?

  /// The member on `connection` no longer waits for a snapshot of `topic`, which will
  /// not come (it could not join the owner again): later patches pass as they come.
  func endSnapshotWait(of topic: String, on connection: ConnectionID) {
    forgetRelay(of: topic, on: connection)
    snapshotWaitEnded(connection)
  }

  private func snapshotWaitEnded(_ connection: ConnectionID) {
    onSnapshotWaitEnded?(connection)
  }

  // MARK: Sending

  /// Queues `message` for `node`; messages to one node leave in the order posted.
  func post(_ message: ClusterMessage, to node: String) {
    let outbox = lock.withLock {
      if let existing = outboxes[node] { return existing }
      let made = Outbox(node: node, backplane: backplane, logger: logger)
      outboxes[node] = made
      return made
    }
    outbox.post(message)
  }

  /// Sends the request `make(ref)` to `node` and waits for its answer.
  func request(to node: String, _ make: (Int64) -> ClusterMessage) async -> Outcome {
    let ref = lock.withLock {
      nextRef += 1
      return nextRef
    }
    let message = make(ref)
    let timeout = requestTimeout
    let timer = Task { [weak self] in
      try? await Task.sleep(for: timeout)
      guard !Task.isCancelled else { return }
      self?.answer(ref, with: .noAnswer)
    }
    defer { timer.cancel() }
    return await withCheckedContinuation { continuation in
      lock.withLock { pending[ref] = (node, continuation) }
      post(message, to: node)
    }
  }

  private func answer(_ ref: Int64, with outcome: Outcome) {
    lock.withLock { pending.removeValue(forKey: ref) }?.continuation.resume(returning: outcome)
  }

  /// `node` is gone (its heartbeat lapsed, or another node took its room over): the
  /// requests waiting for its answers end now as ``Outcome/noAnswer`` instead of at
  /// their timeout.
  func abandonRequests(to node: String) {
    let abandoned = lock.withLock {
      let refs = pending.filter { $0.value.node == node }.keys
      return refs.compactMap { pending.removeValue(forKey: $0)?.continuation }
    }
    for continuation in abandoned { continuation.resume(returning: .noAnswer) }
  }

  // MARK: Inbox

  private func handle(_ event: BackplaneEvent) async {
    switch event {
    case .interrupted:
      logger.warning("the cluster's messages were interrupted: rooms followed here join their owners again")
      for host in lock.withLock({ Array(rooms.values) }) { await host.resynchronize() }
    case .message(let payload):
      let (messages, malformed) = ClusterMessage.decode(payload)
      if malformed > 0 {
        logger.error("malformed cluster messages were dropped", metadata: ["count": "\(malformed)"])
      }
      for message in messages { handle(message) }
    }
  }

  /// Handles one message without waiting: a frame is queued to its sockets before the
  /// next message (an answer that must follow it) is looked at.
  private func handle(_ message: ClusterMessage) {
    switch message {
    case .frame(let connections, let payload):
      var targets = connections
      var gaps: [UInt64] = []
      var caughtUp: [UInt64] = []
      if let head = RelayGuard.FrameHead(payload) {
        // A frame of a room this process owns now comes from its former owner: stale.
        if room(head.topic)?.isOwner == true { return }
        targets = lock.withLock {
          if head.isSnapshot {
            caughtUp = connections.filter { relayGuard.isAwaitingSnapshot(of: head.topic, on: $0) }
          }
          return connections.filter { connection in
            switch relayGuard.admit(head, to: connection) {
            case .relay: return true
            case .drop: return false
            case .gap:
              gaps.append(connection)
              return false
            }
          }
        }
        if !gaps.isEmpty, let host = room(head.topic) {
          logger.warning(
            "frames of a room were lost on their way here: its members join the owner again",
            metadata: ["topic": "\(head.topic)", "members": "\(gaps.count)"])
          for connection in gaps { host.missedFrames(on: ConnectionID(rawValue: connection)) }
        }
      }
      guard !targets.isEmpty else { return }
      let frame = OutboundFrame(text: payload)
      // A slow reader here is treated as one on the owner's process would be: a patch
      // that finds its socket congested is its last until the socket drains, when it
      // asks the owner for one fresh snapshot (`ClusterRoomHost.resync`), instead of its
      // queue growing until the socket is closed as too slow. (A snapshot that finds it
      // congested is still the latest state: nothing to ask for.) Queued and marked under
      // the lock that the drained socket's request takes, so the request cannot come
      // between the two and be missed.
      let head = RelayGuard.FrameHead(payload)
      lock.withLock {
        let outcome = localSink?.broadcast(frame, to: targets.map { ConnectionID(rawValue: $0) })
        guard let head, !head.isSnapshot, let congested = outcome?.congested else { return }
        for connection in congested { relayGuard.awaitSnapshot(of: head.topic, on: connection.rawValue) }
      }
      // Replies held while these members waited go out now, after the snapshot.
      for connection in caughtUp { snapshotWaitEnded(ConnectionID(rawValue: connection)) }
    case .answer(let ref, let error):
      answer(ref, with: error.map { .failed($0) } ?? .ok)
    case .join(let ref, let node, let connection, let remote):
      guard let host = room(remote.topic) else {
        post(.answer(ref: ref, error: .notOwner), to: node)
        return
      }
      // The snapshot is queued for `node` before the answer, in one outbox.
      Task {
        let attached = await host.attachRemote(remote.request, node: node, connection: connection)
        self.post(.answer(ref: ref, error: attached ? nil : .notOwner), to: node)
      }
    case .action(let ref, let node, let topic, let session, let action, let key, let creator):
      guard let host = room(topic) else {
        post(.answer(ref: ref, error: .notOwner), to: node)
        return
      }
      // Actions of different members run side by side (their durable commits share a
      // write); one member's actions come one at a time, as its socket sends them.
      Task {
        let error = await host.performRemote(action, key: key, from: session, creator: creator)
        self.post(.answer(ref: ref, error: error), to: node)
      }
    case .detach(let node, let topic, let session, let connection):
      room(topic)?.detachRemote(session, node: node, connection: connection)
    case .reattach(let node, let topic, let session, let connection, let rev):
      room(topic)?.reattachRemote(session, node: node, connection: connection, after: rev)
    case .resync(let node, let topic, let session):
      room(topic)?.resyncRemote(session, node: node)
    case .leave(let node, let topic, let session):
      if let host = room(topic) { Task { await host.removeRemote(session, node: node) } }
    case .presence(let node, let topic, let session, let meta):
      room(topic)?.setPresenceRemote(meta, from: session, node: node)
    case .census(let owner, let topic):
      room(topic)?.reportMembers(to: owner)
    case .members(let node, let topic, let sessions):
      if let host = room(topic) { Task { await host.reconcileRemote(node: node, sessions: Set(sessions)) } }
    }
  }

  /// The transport's sink, where frames for this process's sockets go (set once, before
  /// the inbox loop starts).
  private var localSink: (any FrameSink)?

  func connect(to sink: any FrameSink) {
    lock.withLock { localSink = sink }
  }

  // MARK: Upkeep

  /// One round: leases renewed, rooms whose owner is gone taken over, members of dead
  /// nodes marked and expired.
  private func keepUp() async {
    let hosts = lock.withLock { Array(rooms.values) }
    let owned = hosts.filter(\.isOwner)
    if !owned.isEmpty {
      do {
        let lost = try await backplane.renewLeases(owned.map(\.topic), ttl: leaseDuration)
        for host in owned where lost.contains(host.topic) {
          logger.warning(
            "this process lost a room's lease: it follows the new owner", metadata: ["topic": "\(host.topic)"]
          )
          await host.stepDown()
        }
      } catch {
        logger.warning("leases could not be renewed", metadata: ["error": "\(error)"])
      }
    }
    for host in hosts where !host.isOwner {
      await host.checkOwner()
    }
    do {
      let alive = try await backplane.heartbeat(ttl: leaseDuration)
      let waitedOn = lock.withLock { Set(pending.values.map(\.node)) }
      for node in waitedOn.subtracting(alive) { abandonRequests(to: node) }
      for host in owned { await host.expireMembers(ofNodesOtherThan: alive) }
    } catch {
      logger.warning("the heartbeat could not be written", metadata: ["error": "\(error)"])
    }
  }
}

/// The messages waiting to go to one node, sent in order, each batch in one backplane
/// message (so a burst of frames costs one round trip to the database, not one each).
private final class Outbox: @unchecked Sendable {
  // Sendable: `queued` and `isSending` are guarded by `lock`.
  private let node: String
  private let backplane: any ClusterBackplane
  private let logger: Logger
  private let lock = NSLock()
  private var queued: [ClusterMessage] = []
  private var isSending = false

  init(node: String, backplane: any ClusterBackplane, logger: Logger) {
    self.node = node
    self.backplane = backplane
    self.logger = logger
  }

  func post(_ message: ClusterMessage) {
    let starts = lock.withLock {
      queued.append(message)
      defer { isSending = true }
      return !isSending
    }
    guard starts else { return }
    Task { await drain() }
  }

  private func drain() async {
    while true {
      let batch = lock.withLock {
        defer { queued = [] }
        if queued.isEmpty { isSending = false }
        return queued
      }
      guard !batch.isEmpty else { return }
      do {
        try await backplane.send(ClusterMessage.encode(batch), to: node)
      } catch {
        logger.warning(
          "cluster messages could not be sent",
          metadata: ["node": "\(node)", "count": "\(batch.count)", "error": "\(error)"])
      }
    }
  }
}
