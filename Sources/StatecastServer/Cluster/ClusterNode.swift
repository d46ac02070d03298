import Foundation
import Logging
import StatecastStorage
import StatecastTransport

/// This process as a member of a cluster of Statecast servers sharing rooms through a
/// ``ClusterBackplane`` (PostgreSQL): it makes the cluster's parts and runs its two loops.
///
/// The *inbox* handles what other nodes send, in order: frames for this process's
/// sockets (to the ``ClusterRelay``), answers to forwarded requests (to the
/// ``ClusterLink``), other nodes' members joining, acting and leaving rooms this node
/// owns (to ``ForwardedMembers``), and an owner's questions to rooms this node follows.
/// The *upkeep* loop renews this node's leases, has followed rooms check their owner
/// (failover), steps down from rooms whose lease was lost, and has the members of nodes
/// that stopped beating marked as reconnecting and removed after the grace period.
///
/// Calls go down only: the node calls the rooms, the rooms call the link and the relay.
final class ClusterNode: Sendable {
  let parts: ClusterParts
  let forwarded: ForwardedMembers
  private let tasks = Locked([Task<Void, Never>]())

  var link: ClusterLink { parts.link }
  var remotes: RemoteConnections { parts.remotes }
  var relay: ClusterRelay { parts.relay }
  var id: String { link.id }
  private var logger: Logger { link.logger }

  init(
    backplane: any ClusterBackplane, leaseDuration: Duration = .seconds(2),
    requestTimeout: Duration = .seconds(5),
    gracePeriod: Duration, newRoomQuota: NewRoomQuota? = nil, logger: Logger
  ) {
    let parts = ClusterParts(
      link: ClusterLink(
        backplane: backplane, leaseDuration: leaseDuration, requestTimeout: requestTimeout, logger: logger),
      relay: ClusterRelay(), rooms: ClusterRooms(), remotes: RemoteConnections())
    self.parts = parts
    forwarded = ForwardedMembers(cluster: parts, newRoomQuota: newRoomQuota, gracePeriod: gracePeriod)
  }

  /// Starts the inbox and upkeep loops.
  func start() {
    let inbox = Task { [weak self, backplane = link.backplane] in
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
        try? await Task.sleep(for: self.link.leaseDuration / 4)
      }
    }
    tasks.withLock { $0 += [inbox, upkeep] }
  }

  /// Stops both loops; answers still awaited end as ``ClusterLink/Outcome/noAnswer``.
  func stop() {
    let stopped = tasks.withLock { tasks in
      defer { tasks = [] }
      return tasks
    }
    for task in stopped { task.cancel() }
    link.abandonAll()
  }

  /// The transport's sink, where frames for this process's sockets go (set once, before
  /// the inbox loop starts).
  func connect(to sink: any FrameSink) {
    relay.connect(to: sink)
  }

  /// Queues `message` for `node`.
  func post(_ message: ClusterMessage, to node: String) {
    link.post(message, to: node)
  }

  // MARK: Inbox

  private func handle(_ event: BackplaneEvent) async {
    switch event {
    case .interrupted:
      logger.warning("the cluster's messages were interrupted: rooms followed here join their owners again")
      for room in parts.rooms.all { room.resynchronize() }
      forwarded.takeCensus()
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
      let rooms = parts.rooms
      guard
        let (topic, gaps) = relay.relay(
          payload, to: connections, isOwnedHere: { rooms[$0]?.isOwner == true }),
        let room = rooms[topic]
      else { return }
      logger.warning(
        "frames of a room were lost on their way here: its members join the owner again",
        metadata: ["topic": "\(topic)", "members": "\(gaps.count)"])
      for connection in gaps { room.missedFrames(on: connection) }
    case .answer(let ref, let error):
      link.answer(ref, with: error.map { .failed($0) } ?? .ok)
    case .census(let owner, let topic):
      parts.rooms[topic]?.reportMembers(to: owner)
    case .join, .action, .detach, .reattach, .resync, .leave, .presence, .members:
      forwarded.handle(message)
    }
  }

  // MARK: Upkeep

  /// One round: leases renewed, rooms whose owner is gone taken over, members of dead
  /// nodes marked and expired.
  private func keepUp() async {
    let rooms = parts.rooms.all
    let owned = rooms.filter(\.isOwner)
    if !owned.isEmpty {
      do {
        let lost = try await link.backplane.renewLeases(owned.map(\.topic), ttl: link.leaseDuration)
        for room in owned where lost.contains(room.topic) {
          logger.warning(
            "this process lost a room's lease: it follows the new owner", metadata: ["topic": "\(room.topic)"]
          )
          await room.stepDown()
        }
      } catch {
        logger.warning("leases could not be renewed", metadata: ["error": "\(error)"])
      }
    }
    for room in rooms where !room.isOwner {
      await room.checkOwner()
    }
    do {
      let alive = try await link.backplane.heartbeat(ttl: link.leaseDuration)
      for node in link.awaitedNodes.subtracting(alive) { link.abandonRequests(to: node) }
      await forwarded.expire(ofNodesOtherThan: alive)
    } catch {
      logger.warning("the heartbeat could not be written", metadata: ["error": "\(error)"])
    }
  }
}
