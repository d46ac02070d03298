import Foundation
import StatecastClient
import StatecastJSON
import Testing

@testable import StatecastServer

/// Two servers sharing rooms through a backplane: the owner runs the store, the other
/// forwards its members' actions and relays the owner's frames; when the owner dies,
/// the other takes the room over. Real servers and sockets; the backplane is the
/// in-memory one (the PostgreSQL backplane has tests of its own, and the demo's
/// cluster is tested end to end over PostgreSQL in Tests/Cluster).
@Suite(.timeLimit(.minutes(1))) struct ClusterTests {
  func names(_ state: JSON?) -> [String] {
    guard case .array(let entries)? = state?["presence"] else { return [] }
    return entries.compactMap { $0["name"]?.stringValue }
  }

  @Test func membersOnTwoProcessesShareOneRoomInOneOrder() async throws {
    let cluster = MemoryCluster()
    let a = try ServerFixture.start(cluster: cluster.node("a"))
    let b = try ServerFixture.start(cluster: cluster.node("b"))
    let onA = try await a.connect()
    let onB = try await b.connect()
    let roomA = try await onA.join("room/shared")
    #expect(cluster.holder("room/shared") == "a")
    let roomB = try await onB.join("room/shared")
    #expect(roomB.state?["count"] == 0)
    // Presence is merged: both see both members.
    #expect(await waitForState(roomA) { names($0).count == 2 } != nil)
    #expect(await waitForState(roomB) { names($0).count == 2 } != nil)
    // An action on the follower runs on the owner; its patch is on B's socket before
    // the reply, and A sees it too, at the same revision.
    try await onB.send(action: Ticker.ClientAction.add(amount: 5), to: "room/shared")
    #expect(roomB.state?["count"] == 5)
    let seenOnA = await waitForState(roomA) { $0["count"] == 5 }
    #expect(seenOnA != nil)
    #expect(roomA.revision == roomB.revision)
    for _ in 0..<20 { try await onA.send(action: Ticker.ClientAction.increment, to: "room/shared") }
    for _ in 0..<20 { try await onB.send(action: Ticker.ClientAction.increment, to: "room/shared") }
    #expect(roomB.state?["count"] == 45)
    #expect(await waitForState(roomA) { $0["count"] == 45 } != nil)
    #expect(roomA.revision == roomB.revision)
    // The follower's member leaves: the owner's presence shows one member again.
    try await onB.leave("room/shared")
    #expect(await waitForState(roomA) { names($0).count == 1 } != nil)
    await b.stop()
    await a.stop()
  }

  @Test func lostFramesLeaveNoGapAndARepliedActionIsInTheState() async throws {
    let cluster = MemoryCluster()
    let a = try ServerFixture.start(cluster: cluster.node("a"))
    let b = try ServerFixture.start(cluster: cluster.node("b"))
    let onA = try await a.connect()
    let onB = try await b.connect()
    let roomA = try await onA.join("room/lossy")
    let roomB = try await onB.join("room/lossy")
    try await onB.send(action: Ticker.ClientAction.increment, to: "room/lossy")
    // Three patches to B are lost; the next one does not follow what B's member has.
    cluster.loseMessages(to: "b")
    for _ in 0..<3 { try await onA.send(action: Ticker.ClientAction.increment, to: "room/lossy") }
    cluster.hear("b")
    try await onA.send(action: Ticker.ClientAction.increment, to: "room/lossy")
    // B's member joins the owner again for a snapshot; an action it sends meanwhile is
    // replied only once its effect is in the member's state (the client would throw on
    // a revision gap).
    try await onB.send(action: Ticker.ClientAction.add(amount: 10), to: "room/lossy")
    #expect(roomB.state?["count"] == 15)
    #expect(await waitForState(roomA) { $0["count"] == 15 } != nil)
    try await onB.send(action: Ticker.ClientAction.increment, to: "room/lossy")
    #expect(roomB.state?["count"] == 16)
    await b.stop()
    await a.stop()
  }

  @Test func aFollowerTakesTheRoomOverWhenItsOwnerDies() async throws {
    let cluster = MemoryCluster()
    let a = try ServerFixture.start(cluster: cluster.node("a"))
    let b = try ServerFixture.start(cluster: cluster.node("b"))
    let onA = try await a.connect()
    let onB = try await b.connect()
    _ = try await onA.join("room/failover")
    let roomB = try await onB.join("room/failover")
    try await onB.send(action: Ticker.ClientAction.increment, to: "room/failover")
    let before = roomB.revision ?? 0
    cluster.kill("a")
    // B notices the lapsed lease, opens the store itself and sends its member a fresh
    // snapshot at a later revision; actions work again.
    let taken = await waitForState(roomB) { _ in
      cluster.holder("room/failover") == "b" && (roomB.revision ?? 0) > before
    }
    #expect(taken != nil)
    try await onB.send(action: Ticker.ClientAction.add(amount: 2), to: "room/failover")
    #expect(cluster.holder("room/failover") == "b")
    await b.stop()
    await a.stop()
  }

  @Test func aSlowReaderOnAFollowerCatchesUpWithASnapshotInsteadOfBeingClosed() async throws {
    let cluster = MemoryCluster()
    let a = try ServerFixture.start(cluster: cluster.node("a"))
    let b = try ServerFixture.start(cluster: cluster.node("b")) { configuration in
      configuration.outboundHighWatermark = 64 * 1_024
      configuration.outboundHardLimit = 1_024 * 1_024
    }
    let onA = try await a.connect()
    _ = try await onA.join("banner/slow")
    #expect(cluster.holder("banner/slow") == "a")
    // A member on the follower that reads nothing once it has joined.
    let slow = try RawPeer(port: b.port, receiveBuffer: 4_096)
    let joined = try await onOwnThread { () -> Bool in
      slow.sendText(#"{"op":"join","ref":1,"topic":"banner/slow"}"#)
      while let frame = slow.nextFrame(), frame.opcode == 1 {
        if String(decoding: frame.payload, as: UTF8.self).contains(#""op":"reply","ref":1"#) { return true }
      }
      return false
    }
    #expect(joined)
    // 200 patches of 40 KB for it: 8 MB, past what the kernel buffers (4 MB) and far past
    // the follower's hard limit for one socket.
    let text = String(repeating: "x", count: 40_000)
    for index in 1...200 {
      try await onA.send(action: Banner.ClientAction.show(text: "\(index) \(text)"), to: "banner/slow")
    }
    // Reading again, it gets what was queued, then a fresh snapshot of the last
    // version, as a slow reader on the owner's process would; not a close frame.
    let outcome = try await onOwnThread { () -> String in
      while let frame = slow.nextFrame() {
        if frame.opcode == 8 {
          return "closed: " + String(decoding: frame.payload.dropFirst(2), as: UTF8.self)
        }
        let message = String(decoding: frame.payload, as: UTF8.self)
        if message.contains(#""op":"snapshot""#) && message.contains(#""version":200"#) { return "caught up" }
      }
      return "connection lost"
    }
    #expect(outcome == "caught up")
    await b.stop()
    await a.stop()
  }

  @Test func membersWhoseLeaveTheOwnerMissedAreRemovedOnceItListensAgain() async throws {
    let cluster = MemoryCluster()
    let a = try ServerFixture.start(cluster: cluster.node("a"))
    let b = try ServerFixture.start(cluster: cluster.node("b"))
    let onA = try await a.connect()
    let leaving = try await b.connect()
    let staying = try await b.connect()
    let roomA = try await onA.join("room/census")
    _ = try await leaving.join("room/census")
    _ = try await staying.join("room/census")
    #expect(await waitForState(roomA) { names($0).count == 3 } != nil)
    // The owner's listening connection is down while one member on B leaves: the leave
    // is lost, and the owner still shows it.
    cluster.loseMessages(to: "a")
    try await leaving.leave("room/census")
    let lostLeave = await cluster.losses.first { $0.node == "a" && $0.payload.contains(#""kind":"leave""#) }
    #expect(lostLeave != nil)
    #expect(names(roomA.state).count == 3)
    // Listening again, the owner asks B for its members and drops the one that left.
    cluster.reconnect("a")
    #expect(await waitForState(roomA) { names($0).count == 2 } != nil)
    await b.stop()
    await a.stop()
  }

  @Test func aMemberWhoseJoinTheOwnerNeverAnsweredIsNoMemberHere() async throws {
    let cluster = MemoryCluster()
    let a = try ServerFixture.start(cluster: cluster.node("a"))
    let b = try ServerFixture.start(cluster: cluster.node("b"))
    let onA = try await a.connect()
    let onB = try await b.connect()
    _ = try await onA.join("room/unanswered")
    // The owner hears nothing while B's member joins: the join fails (in the request's
    // time, 5 s).
    cluster.loseMessages(to: "a")
    await #expect(throws: (any Error).self) { _ = try await onB.join("room/unanswered") }
    cluster.hear("a")
    // The owner dies. Had the member whose join failed stayed in B's room, B would take
    // the room over for it in its next upkeep round and send it the room's state; with
    // nobody in the room on B, the room is left without an owner.
    var rounds = cluster.heartbeats(of: "b").makeAsyncIterator()
    cluster.kill("a")
    for _ in 0..<2 { await rounds.next() }
    #expect(cluster.holder("room/unanswered") == nil)
    await b.stop()
    await a.stop()
  }

  @Test func aMemberAwayWhileTheRoomChangedHandsJoinsTheNewOwnerWhenItComesBack() async throws {
    let cluster = MemoryCluster()
    let a = try ServerFixture.start(cluster: cluster.node("a"))
    let b = try ServerFixture.start(cluster: cluster.node("b"))
    let c = try ServerFixture.start(cluster: cluster.node("c"))
    _ = try await a.connect().join("room/handover")
    let onC = try await c.connect()
    _ = try await onC.join("room/handover")
    // B's member, on a raw socket: joins, then its socket goes away (the session waits).
    let away = try await RawMember.connect(to: b.url, client: b.client)
    try await away.join("room/handover")
    away.socket.close()
    // A dies and C takes the room over (B cannot take leases); B's members join C.
    cluster.denyLeases(to: "b")
    cluster.kill("a")
    let onCState = try await onC.join("room/handover")
    #expect(cluster.holder("room/handover") == "c")
    var rounds = cluster.heartbeats(of: "b").makeAsyncIterator()
    for _ in 0..<2 { await rounds.next() }
    // The member comes back to B and resumes: C never had it, so it is joined there (a
    // snapshot), and then sees C's changes.
    let back = try await RawMember.connect(to: b.url, client: b.client)
    try await back.resume(away.session, at: ["room/handover": away.revision])
    try await onC.send(action: Ticker.ClientAction.add(amount: 7), to: "room/handover")
    #expect(onCState.state?["count"] == 7)
    #expect(try await back.waitForCount(7))
    #expect(back.snapshots == 1, "joined at C: a snapshot, not patches C never had for it")
    await c.stop()
    await b.stop()
    await a.stop()
  }

  @Test func aMemberJoiningWhileTheOwnerStepsDownJoinsTheNewOwner() async throws {
    let cluster = MemoryCluster()
    let a = try ServerFixture.start(cluster: cluster.node("a"))
    let b = try ServerFixture.start(cluster: cluster.node("b"))
    let staying = try await a.connect()
    let leaving = try await a.connect()
    let onB = try await b.connect()
    let stayingRoom = try await staying.join("room/stepdown")
    _ = try await leaving.join("room/stepdown")
    let roomB = try await onB.join("room/stepdown")
    #expect(cluster.holder("room/stepdown") == "a")
    let room = try #require(a.server.cluster?.parts.rooms["room/stepdown"])
    // A could not renew its lease in time and B took the room over. A finds out when it
    // next renews: its store closes and it asks who holds the room now, an answer held
    // here until two requests have reached A's room.
    var lookUps = cluster.holdLookUps(by: "a").makeAsyncIterator()
    var rounds = cluster.heartbeats(of: "b").makeAsyncIterator()
    cluster.moveLease("room/stepdown", to: "b")
    for _ in 0..<2 { await rounds.next() }
    await lookUps.next()
    // A member leaves (at once: it follows the room nowhere). A member joins on A, and
    // A's member acts: each request either waits for the room to settle or is answered.
    try await leaving.leave("room/stepdown")
    let (routed, reached) = AsyncStream<Void>.makeStream()
    let watching = Task {
      for await _ in room.waitingRequests() { reached.yield() }
    }
    let joining = try await a.connect()
    let joined = Task {
      defer { reached.yield() }
      return try await joining.join("room/stepdown")
    }
    let acted = Task {
      defer { reached.yield() }
      try await staying.send(action: Ticker.ClientAction.add(amount: 2), to: "room/stepdown")
    }
    var requests = routed.makeAsyncIterator()
    for _ in 0..<2 { await requests.next() }
    watching.cancel()
    cluster.releaseLookUps(by: "a")
    // Both went to B: the action is in the room's state, the new member is in the room.
    let joinedRoom = try await joined.value
    try await acted.value
    try await joining.send(action: Ticker.ClientAction.add(amount: 3), to: "room/stepdown")
    #expect(joinedRoom.state?["count"] == 5)
    #expect(await waitForState(roomB) { $0["count"] == 5 } != nil)
    // A's member was not dropped: it joined B too, and its actions run there.
    try await staying.send(action: Ticker.ClientAction.increment, to: "room/stepdown")
    #expect(stayingRoom.state?["count"] == 6)
    #expect(await waitForState(joinedRoom) { $0["count"] == 6 } != nil)
    #expect(await waitForState(roomB) { $0["count"] == 6 } != nil)
    #expect(await waitForState(roomB) { names($0).count == 3 } != nil)
    #expect(names(roomB.state).count == 3, "B's member, the one that joined and the one that stayed")
    #expect(cluster.holder("room/stepdown") == "b")
    await b.stop()
    await a.stop()
  }

  @Test func aMemberJoiningWhileTheOwnerTakesItsLapsedLeaseBackJoinsTheStoreOpenedAgain() async throws {
    let cluster = MemoryCluster()
    let a = try ServerFixture.start(cluster: cluster.node("a"))
    let staying = try await a.connect()
    let stayingRoom = try await staying.join("room/reclaimed")
    let room = try #require(a.server.cluster?.parts.rooms["room/reclaimed"])
    // A's lease lapsed and nobody took it: A steps down, finds nobody holds the room and
    // takes it back, opening its store again. A look-up held here keeps the room given
    // up until a member's join has reached it.
    var lookUps = cluster.holdLookUps(by: "a").makeAsyncIterator()
    cluster.expireLease("room/reclaimed")
    await lookUps.next()
    var waiting = room.waitingRequests().makeAsyncIterator()
    let joining = try await a.connect()
    let joined = Task { try await joining.join("room/reclaimed") }
    await waiting.next()
    cluster.releaseLookUps(by: "a")
    // The join went to the store A opened again, with A's member in it.
    let joinedRoom = try await joined.value
    #expect(cluster.holder("room/reclaimed") == "a")
    try await joining.send(action: Ticker.ClientAction.add(amount: 3), to: "room/reclaimed")
    #expect(joinedRoom.state?["count"] == 3)
    #expect(await waitForState(stayingRoom) { $0["count"] == 3 } != nil)
    try await staying.send(action: Ticker.ClientAction.increment, to: "room/reclaimed")
    #expect(stayingRoom.state?["count"] == 4)
    #expect(await waitForState(joinedRoom) { names($0).count == 2 } != nil)
    await a.stop()
  }

  @Test func framesOverTheBackplaneRoundTrip() {
    let messages: [ClusterMessage] = [
      .frame(connections: [1, 2], payload: Array(#"{"op":"patch","topic":"t","rev":3,"ops":[]}"#.utf8)),
      .answer(ref: 7, error: .notOwner),
      .action(
        ref: 8, node: "n", room: "board/x", session: "s", action: ["add": ["amount": 1]], key: nil,
        creator: nil),
      .action(
        ref: 9, node: "n", room: "board/x", session: "s", action: ["add": ["amount": 1]], key: "k-1",
        creator: RoomCreator(viewer: "v-ada", address: "192.0.2.7")),
      .reattach(node: "n", room: "r", session: "s", connection: 9, rev: nil),
      .census(node: "n", room: "r"),
      .members(node: "n", room: "r", sessions: ["s", "t"]),
    ]
    let (decoded, malformed) = ClusterMessage.decode(ClusterMessage.encode(messages))
    #expect(malformed == 0)
    #expect(decoded == messages)
  }
}
