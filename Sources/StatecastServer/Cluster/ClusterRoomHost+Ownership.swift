import Foundation
import Logging
import StatecastStorage

/// How a room changes hands: ``RoomOwnership`` decides, this carries its actions out
/// (the backplane's lease, the store, the members that follow the room).
extension ClusterRoomHost {
  /// Follower: finds out who owns the room now. When nobody does (the owner died and
  /// its lease ran out, or it closed the room), this node takes the lease and runs the
  /// store from the durable log; when another node does, its members join it there.
  func checkOwner() async {
    await run(decide(.checkOwner))
  }

  /// Owner that lost its lease (it was cut off from the database for longer than the
  /// lease): its store closes, and its members follow whoever holds the room now.
  func stepDown() async {
    await run(decide(.leaseLost))
  }

  /// Runs `body` under the lock once the room is not changing hands here: a request
  /// arriving while this process gives the room up (its store closing, the new holder
  /// looked up) waits for it to settle instead of meeting the closing store.
  func whenSettled<Value>(_ body: (inout Shared) -> Value) async -> Value {
    while true {
      let settled = shared.withLock { shared -> Value? in
        shared.ownership.isHandingOver ? nil : body(&shared)
      }
      if let settled { return settled }
      await withCheckedContinuation { (request: CheckedContinuation<Void, Never>) in
        let waits = shared.withLock { shared -> Bool in
          guard shared.ownership.isHandingOver else { return false }
          shared.waiting.append(request)
          for watcher in shared.waitWatchers { watcher.yield() }
          return true
        }
        if !waits { request.resume() }
      }
    }
  }

  /// Yields as each request starts waiting for the room to settle (a test holds the
  /// hand-over there to see what a request meets meanwhile).
  func waitingRequests() -> AsyncStream<Void> {
    let (stream, continuation) = AsyncStream<Void>.makeStream()
    shared.withLock { $0.waitWatchers.append(continuation) }
    return stream
  }

  /// Hands `event` to the room's ``RoomOwnership`` and returns what it decided.
  func decide(_ event: Ownership.Event) -> [Ownership.Action] {
    let remotes = cluster.remotes
    return shared.withLock { $0.handle(event, remotes: remotes) }
  }

  /// Carries out what the ownership decided, and what it decides next from their results.
  func run(_ actions: [Ownership.Action]) async {
    for action in actions {
      switch action {
      case .lookUpOwner(let current):
        let event = await lookUpOwner(current: current)
        await run(decide(event))
      case .lookUpHolder:
        let holder = try? await link.backplane.leaseHolder(room: topic)
        let event = holder.map { Ownership.Event.ownerIs($0) } ?? .ownerUnknown
        await run(decide(event))
      case .rejoinMembers(let owner):
        logger.info("a room moved to another process", metadata: ["topic": "\(topic)", "owner": "\(owner)"])
        rejoin(shared.withLock { Array($0.local.values) }, to: owner)
      case .abandonRequests(let node):
        // What this room still waits on from its former owner will not be answered
        // (that node may well answer for its other rooms).
        link.abandonRequests(to: node, about: topic)
      case .announceTakeover:
        logger.info("this process took a room over", metadata: ["topic": "\(topic)"])
      case .closeStore(let store):
        await store.close()
      case .releaseLease(let store):
        let backplane = link.backplane
        let topic = self.topic
        shared.withLock {
          $0.closing = Task {
            await store?.waitUntilClosed()
            try? await backplane.releaseLease(room: topic)
          }
        }
      case .detachMembers(let owner):
        for (session, member) in shared.withLock({ $0.local }) {
          guard let connection = member.connection else { continue }
          link.post(
            .detach(node: link.id, room: topic, session: session, connection: connection.rawValue), to: owner)
        }
      case .unregister:
        cluster.rooms.unregister(self)
      }
    }
    // Settled, and its members on their way to the new holder (their actions wait for
    // their joins there): what waited asks again, and finds the holder, the store or nothing.
    let settled = shared.withLock { shared -> [CheckedContinuation<Void, Never>] in
      guard !shared.ownership.isHandingOver else { return [] }
      defer { shared.waiting = [] }
      return shared.waiting
    }
    for request in settled { request.resume() }
  }

  /// Who holds the lease now, taking it (and opening the store for this process's
  /// members) when nobody does.
  private func lookUpOwner(current: String) async -> Ownership.Event {
    do {
      var holder = try await link.backplane.leaseHolder(room: topic)
      if holder == current { return .ownerUnchanged }
      if holder == nil || holder == link.id {
        holder = try await link.backplane.acquireLease(room: topic, ttl: link.leaseDuration)
        // Another node may have taken it a moment earlier: ask again who holds it now.
        if holder != link.id { holder = try await link.backplane.leaseHolder(room: topic) ?? holder }
      }
      guard let holder else { return .ownerUnchanged }
      guard holder == link.id else { return .ownerIs(holder) }
      guard let store = try await openStore() else { return .ownerUnchanged }
      return .tookOver(store)
    } catch {
      logger.warning(
        "the owner of a room could not be found", metadata: ["topic": "\(topic)", "error": "\(error)"])
      return .ownerUnchanged
    }
  }

  /// This node holds the lease now: opens the store and moves every member here; `nil`
  /// (the lease given back) when no member is left here to run it for.
  private func openStore() async throws -> (any TopicHost)? {
    let members = shared.withLock { $0.local }
    guard let first = members.values.first else {
      try? await link.backplane.releaseLease(room: topic)
      return nil
    }
    let inner: any TopicHost
    do {
      inner = try await route.makeHost(first.request, context: context)
    } catch {
      try? await link.backplane.releaseLease(room: topic)
      throw error
    }
    for member in members.values {
      // One that was away when this process last gave the room up has no socket to
      // stand for it: it joins again when it comes back.
      guard let last = member.connection ?? member.lastConnection else { continue }
      _ = try? await inner.attach(member.request, connection: last)
      if member.connection == nil { inner.detach(member.request.session, from: last) }
    }
    return inner
  }
}
