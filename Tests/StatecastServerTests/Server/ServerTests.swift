import Foundation
import StatecastClient
import StatecastJSON
import Testing

@testable import StatecastServer

/// The server end to end over real loopback sockets, driven by the Swift client.
@Suite(.timeLimit(.minutes(1))) struct ServerTests {
  @Test func actionsChangeTheViewAndTheStateBehindItStaysOnTheServer() async throws {
    let fixture = try ServerFixture.start()
    let connection = try await fixture.connect()
    let ticker = try await connection.join("ticker")
    #expect(ticker.state == ["count": 0, "ticks": 0])
    try await connection.send(action: Ticker.ClientAction.increment, to: "ticker")
    try await connection.send(action: Ticker.ClientAction.add(amount: 41), to: "ticker")
    // The reply comes after the patch, so the state is already applied here.
    #expect(ticker.state?["count"] == 42)
    #expect(ticker.state?["secret"] == nil)
    await fixture.stop()
  }

  @Test func accessRulesRefuseJoinsAndActions() async throws {
    let fixture = try ServerFixture.start()
    let connection = try await fixture.connect()
    await #expect(throws: StatecastError.self) {
      try await connection.join("guarded/ada", params: ["user": "bob"])
    }
    let guarded = try await connection.join("guarded/ada", params: ["user": "ada"])
    try await connection.send(action: Ticker.ClientAction.add(amount: 10), to: "guarded/ada")
    do {
      try await connection.send(action: Ticker.ClientAction.add(amount: 11), to: "guarded/ada")
      Issue.record("an action refused by the route's access rule was accepted")
    } catch let error as StatecastError {
      #expect(error.code == "forbidden")
    }
    #expect(guarded.state?["count"] == 10)
    await fixture.stop()
  }

  @Test func effectsRunWhileJoinedAndLeavingCancelsThem() async throws {
    let fixture = try ServerFixture.start()
    let connection = try await fixture.connect()
    let ticker = try await connection.join("ticker")
    try await connection.send(action: Ticker.ClientAction.startTicking, to: "ticker")
    await fixture.probe.wait(for: .started)
    // Ticks arrive as patches with no request behind them.
    let ticking = await waitForState(ticker) { ($0["ticks"]?.int64Value ?? 0) >= 3 }
    #expect(ticking != nil)
    try await connection.leave("ticker")
    await fixture.probe.wait(for: .cancelled)
    await fixture.stop()
  }

  @Test func anExpiredSessionCancelsItsStoresEffects() async throws {
    let fixture = try ServerFixture.start { $0.sessionGracePeriod = .milliseconds(50) }
    let connection = try await fixture.connect()
    _ = try await connection.join("ticker")
    try await connection.send(action: Ticker.ClientAction.startTicking, to: "ticker")
    await fixture.probe.wait(for: .started)
    #expect(fixture.server.sessionCount == 1)
    connection.close()
    // Nothing else cancels the effect: only the session's expiry after the grace period.
    await fixture.probe.wait(for: .cancelled)
    #expect(await fixture.probe.recorded == [.started, .cancelled])
    #expect(fixture.server.sessionCount == 0)
    await fixture.stop()
  }

  @Test func aResumedSessionKeepsItsStoreAndItsRunningEffects() async throws {
    let fixture = try ServerFixture.start()
    let connection = try await fixture.connect()
    let ticker = try await connection.join("ticker")
    try await connection.send(action: Ticker.ClientAction.add(amount: 5), to: "ticker")
    try await connection.send(action: Ticker.ClientAction.startTicking, to: "ticker")
    await fixture.probe.wait(for: .started)
    let session = connection.sessionID
    #expect(try await connection.reconnect())
    #expect(connection.sessionID == session)
    #expect(ticker.state?["count"] == 5)
    let before = ticker.state?["ticks"]?.int64Value ?? 0
    let later = await waitForState(ticker) { ($0["ticks"]?.int64Value ?? 0) > before + 2 }
    #expect(later != nil)
    #expect(await fixture.probe.recorded == [.started])
    await fixture.stop()
  }

  @Test func membersOfASharedTopicSeeOneStore() async throws {
    let fixture = try ServerFixture.start()
    let ada = try await fixture.connect()
    let bob = try await fixture.connect()
    let adaRoom = try await ada.join("room/1")
    let bobRoom = try await bob.join("room/1")
    let otherRoom = try await bob.join("room/2")
    try await ada.send(action: Ticker.ClientAction.add(amount: 3), to: "room/1")
    let seenByBob = await waitForState(bobRoom) { $0["count"] == 3 }
    #expect(seenByBob?["count"] == 3)
    try await bob.send(action: Ticker.ClientAction.increment, to: "room/1")
    let seenByAda = await waitForState(adaRoom) { $0["count"] == 4 }
    #expect(seenByAda?["count"] == 4)
    #expect(adaRoom.revision == bobRoom.revision)
    #expect(otherRoom.state?["count"] == 0)
    // A member leaving does not end the room.
    try await ada.leave("room/1")
    try await bob.send(action: Ticker.ClientAction.increment, to: "room/1")
    #expect(bobRoom.state?["count"] == 5)
    // The last one leaving does: the next join starts a fresh store.
    try await bob.leave("room/1")
    let fresh = try await ada.join("room/1")
    #expect(fresh.state?["count"] == 0)
    await fixture.stop()
  }

  @Test func aRoomNobodyIsInIsForgotten() async throws {
    let fixture = try ServerFixture.start { $0.sessionGracePeriod = .milliseconds(50) }
    let connection = try await fixture.connect()
    for room in 0..<200 {
      _ = try await connection.join("room/\(room)")
      try await connection.leave("room/\(room)")
    }
    #expect(fixture.server.roomCount == 0)
    // Two members, one leaves: the room stays; the other's session expires: it goes.
    let ada = try await fixture.connect()
    _ = try await connection.join("room/kept")
    _ = try await ada.join("room/kept")
    try await connection.leave("room/kept")
    #expect(fixture.server.roomCount == 1)
    try await ada.send(action: Ticker.ClientAction.startTicking, to: "room/kept")
    await fixture.probe.wait(for: .started)
    ada.close()
    await fixture.probe.wait(for: .cancelled)
    while fixture.server.roomCount > 0 { await Task.yield() }
    #expect(fixture.server.sessionCount == 1)
    await fixture.stop()
  }

  @Test func shutdownClosesSocketsWith1001AndCancelsEffects() async throws {
    let fixture = try ServerFixture.start()
    let connection = try await fixture.connect()
    _ = try await connection.join("ticker")
    try await connection.send(action: Ticker.ClientAction.startTicking, to: "ticker")
    await fixture.probe.wait(for: .started)
    await fixture.server.shutdown()
    #expect(await connection.socketClosed() == 1001)
    #expect(await fixture.probe.recorded == [.started, .cancelled])
    await fixture.client.shutdown()
  }

  @Test func aSessionMayJoinOnlySoManyTopics() async throws {
    let fixture = try ServerFixture.start { $0.maxTopicsPerSession = 2 }
    let connection = try await fixture.connect()
    _ = try await connection.join("room/1")
    _ = try await connection.join("room/2")
    do {
      _ = try await connection.join("room/3")
      Issue.record("a third topic was joined")
    } catch let error as StatecastError {
      #expect(error.code == "forbidden")
    }
    // Joining one already joined is not a new topic.
    _ = try await connection.join("room/2")
    await fixture.stop()
  }

  @Test func aStoreFactoryErrorIsForbiddenWithoutItsDetails() async throws {
    let fixture = try ServerFixture.start()
    let connection = try await fixture.connect()
    do {
      _ = try await connection.join("failing/refused")
      Issue.record("a refused join succeeded")
    } catch let error as StatecastError {
      #expect(error == StatecastError(code: "forbidden", message: "no entry today"))
    }
    do {
      _ = try await connection.join("failing/broken")
      Issue.record("a failing join succeeded")
    } catch let error as StatecastError {
      #expect(error.code == "forbidden")
      #expect(!error.message.contains("secret"))
    }
    await fixture.stop()
  }
}
