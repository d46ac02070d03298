import Foundation
import StatecastStorage

/// Several nodes of a cluster in one test process: leases, heartbeats and ordered
/// messages in memory, with the semantics of the PostgreSQL backplane (which its own
/// tests check against a real server). `kill(node)` stops a node dead: its leases and
/// heartbeat lapse and its messages are no longer delivered.
final class MemoryCluster: @unchecked Sendable {
  private let lock = NSLock()
  private var leases: [String: (node: String, expires: ContinuousClock.Instant)] = [:]
  private var beats: [String: ContinuousClock.Instant] = [:]
  private var inboxes: [String: AsyncStream<BackplaneEvent>.Continuation] = [:]
  private var dead: Set<String> = []
  private var deaf: Set<String> = []
  private var leaseless: Set<String> = []
  private let lossReports = AsyncStream<(node: String, payload: String)>.makeStream()
  private var beatWatchers: [(node: String, continuation: AsyncStream<Void>.Continuation)] = []
  private var lookUpHolds: [String: AsyncStream<Void>.Continuation] = [:]
  private var heldLookUps: [String: [CheckedContinuation<Void, Never>]] = [:]

  /// Every message lost on its way to a node that does not listen (``loseMessages(to:)``).
  var losses: AsyncStream<(node: String, payload: String)> { lossReports.stream }
  /// Each heartbeat `node` writes from now on (the end of one of its upkeep rounds).
  func heartbeats(of node: String) -> AsyncStream<Void> {
    let (stream, continuation) = AsyncStream<Void>.makeStream()
    lock.withLock { beatWatchers.append((node, continuation)) }
    return stream
  }

  func node(_ name: String) -> MemoryBackplane {
    let (stream, continuation) = AsyncStream<BackplaneEvent>.makeStream()
    lock.withLock { inboxes[name] = continuation }
    return MemoryBackplane(node: name, cluster: self, inbox: stream)
  }

  /// The node stops: nothing more reaches it, its leases are gone at once.
  func kill(_ name: String) {
    lock.withLock {
      dead.insert(name)
      inboxes.removeValue(forKey: name)?.finish()
      leases = leases.filter { $0.value.node != name }
      beats[name] = nil
    }
  }

  /// Messages to `node` are lost, as notifications are while its listening connection
  /// reconnects, until ``hear(_:)``.
  func loseMessages(to node: String) {
    lock.withLock { _ = deaf.insert(node) }
  }

  /// `node` cannot take leases (its attempts fail, as with the database unreachable):
  /// decides which node takes a room over.
  func denyLeases(to node: String) {
    lock.withLock { _ = leaseless.insert(node) }
  }

  /// `node` holds `room`'s lease now, as when its holder could not renew it in time
  /// and `node` took it: the former holder finds out when it next renews.
  func moveLease(_ room: String, to node: String, ttl: Duration = .seconds(2)) {
    lock.withLock { leases[room] = (node, .now + ttl) }
  }

  /// `room`'s lease lapsed (its holder could not renew it in time) and nobody took it.
  func expireLease(_ room: String) {
    lock.withLock { leases[room] = nil }
  }

  /// From now on `node`'s questions of who holds a lease wait for their answer until
  /// ``releaseLookUps(by:)``; the stream yields as each one starts waiting. Holds a room
  /// that steps down between its store's closing and its new holder's being known.
  func holdLookUps(by node: String) -> AsyncStream<Void> {
    let (stream, continuation) = AsyncStream<Void>.makeStream()
    lock.withLock { lookUpHolds[node] = continuation }
    return stream
  }

  /// `node`'s held look-ups are answered, and the next ones at once.
  func releaseLookUps(by node: String) {
    let held = lock.withLock {
      lookUpHolds.removeValue(forKey: node)?.finish()
      return heldLookUps.removeValue(forKey: node) ?? []
    }
    for continuation in held { continuation.resume() }
  }

  func hear(_ node: String) {
    lock.withLock { _ = deaf.remove(node) }
  }

  /// Messages reach `node` again and it is told some may have been lost, as the
  /// PostgreSQL backplane tells a node whose listening connection came back.
  func reconnect(_ node: String) {
    lock.withLock {
      _ = deaf.remove(node)
      inboxes[node]?.yield(.interrupted)
    }
  }

  func holder(_ room: String) -> String? {
    lock.withLock {
      guard let lease = leases[room], lease.expires > .now else { return nil }
      return lease.node
    }
  }

  fileprivate func lookUp(_ room: String, by node: String) async -> String? {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let held = lock.withLock { () -> Bool in
        guard let watcher = lookUpHolds[node] else { return false }
        heldLookUps[node, default: []].append(continuation)
        watcher.yield()
        return true
      }
      if !held { continuation.resume() }
    }
    return holder(room)
  }

  fileprivate func acquire(_ room: String, _ node: String, _ ttl: Duration) throws -> String {
    try lock.withLock {
      guard !dead.contains(node), !leaseless.contains(node) else { throw Dead() }
      if let lease = leases[room], lease.expires > .now, lease.node != node { return lease.node }
      leases[room] = (node, .now + ttl)
      return node
    }
  }

  fileprivate func renew(_ rooms: [String], _ node: String, _ ttl: Duration) throws -> Set<String> {
    try lock.withLock {
      guard !dead.contains(node) else { throw Dead() }
      var lost: Set<String> = []
      for room in rooms {
        if leases[room]?.node == node { leases[room]?.expires = .now + ttl } else { lost.insert(room) }
      }
      return lost
    }
  }

  fileprivate func release(_ room: String, _ node: String) {
    lock.withLock { if leases[room]?.node == node { leases[room] = nil } }
  }

  fileprivate func beat(_ node: String, _ ttl: Duration) throws -> Set<String> {
    try lock.withLock {
      guard !dead.contains(node) else { throw Dead() }
      beats[node] = .now + ttl
      for watcher in beatWatchers where watcher.node == node { watcher.continuation.yield() }
      return Set(beats.filter { $0.value > .now }.keys)
    }
  }

  fileprivate func deliver(_ payload: String, to node: String, from sender: String) throws {
    try lock.withLock {
      guard !dead.contains(sender) else { throw Dead() }
      guard !deaf.contains(node) else {
        lossReports.continuation.yield((node, payload))
        return
      }
      inboxes[node]?.yield(.message(payload))
    }
  }

  struct Dead: Error {}
}

struct MemoryBackplane: ClusterBackplane {
  let node: String
  let cluster: MemoryCluster
  let inbox: AsyncStream<BackplaneEvent>

  func acquireLease(room: String, ttl: Duration) async throws -> String {
    try cluster.acquire(room, node, ttl)
  }
  func renewLeases(_ rooms: [String], ttl: Duration) async throws -> Set<String> {
    try cluster.renew(rooms, node, ttl)
  }
  func leaseHolder(room: String) async throws -> String? { await cluster.lookUp(room, by: node) }
  func releaseLease(room: String) async throws { cluster.release(room, node) }
  func heartbeat(ttl: Duration) async throws -> Set<String> { try cluster.beat(node, ttl) }
  func send(_ payload: String, to node: String) async throws {
    try cluster.deliver(payload, to: node, from: self.node)
  }
}
