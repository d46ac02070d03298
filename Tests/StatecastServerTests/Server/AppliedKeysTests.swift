import Foundation
import Statecast
import StatecastClient
import StatecastJSON
import Testing

@testable import StatecastServer

/// Idempotency keys: an action retried with the key of one already applied is answered
/// as applied and changes nothing.
@Suite(.timeLimit(.minutes(1))) struct AppliedKeysTests {
  let connection = ConnectionID(rawValue: 1)
  let request = JoinRequest(
    topic: "ticker", pathParameters: [:], params: [:], session: "s1", viewer: .anonymous)

  func makeHost(restored: [String] = []) async -> (
    StoreHost<Ticker.State, Ticker.Action, Ticker.ClientAction, Ticker.ViewState>,
    Store<Ticker.State, Ticker.Action>
  ) {
    let store = Ticker.makeStore(probe: Probe())
    let host = await StoreHost(
      topic: "ticker", store: store, embed: { action, _ in .client(action) },
      view: { state, _ in Ticker.viewState(state) }, canSend: { _, _, _ in true }, sink: RecordingSink(),
      appliedKeys: restored)
    #expect(await host.attach(request, connection: connection))
    return (host, store)
  }

  @Test func aRetryWithTheSameKeyIsAppliedOnce() async {
    let (host, store) = await makeHost()
    #expect(await host.outcome(["increment": [:]], key: "k1", from: "s1") == nil)
    #expect(await host.outcome(["increment": [:]], key: "k1", from: "s1") == nil)
    #expect(await host.outcome(["increment": [:]], key: "k2", from: "s1") == nil)
    #expect(await host.outcome(["increment": [:]], from: "s1") == nil)
    #expect(await host.outcome(["increment": [:]], from: "s1") == nil)
    #expect(await store.state.count == 4)
  }

  @Test func keysRestoredFromAJournalAreApplied() async {
    let (host, store) = await makeHost(restored: ["old-1", "old-2"])
    #expect(await host.outcome(["increment": [:]], key: "old-2", from: "s1") == nil)
    #expect(await store.state.count == 0)
  }

  @Test func aRefusedAttemptDoesNotRememberItsKey() async {
    let (host, store) = await makeHost()
    #expect(await host.outcome(["add": ["amount": "lots"]], key: "k1", from: "s1")?.code == .badAction)
    #expect(await host.outcome(["add": ["amount": 2]], key: "k1", from: "s1") == nil)
    #expect(await store.state.count == 2)
  }

  @Test func attemptsAtOnceApplyOnce() async {
    let (host, store) = await makeHost()
    await withTaskGroup(of: ProtocolError?.self) { group in
      for _ in 0..<20 { group.addTask { await host.outcome(["increment": [:]], key: "same", from: "s1") } }
      for await outcome in group { #expect(outcome == nil) }
    }
    #expect(await store.state.count == 1)
  }

  @Test func theOldestKeysAreForgottenPastTheCapacity() async {
    let keys = AppliedKeys(restored: (0..<AppliedKeys.sharedCapacity).map { "r\($0)" })
    #expect(keys.contains("r0"))
    try? await keys.perform(key: "new") {}
    #expect(!keys.contains("r0") && keys.contains("r1") && keys.contains("new"))
  }

  @Test(arguments: ["", String(repeating: "a", count: 65), "has space", "é", "a/b"])
  func unusableKeys(_ key: String) {
    #expect(AppliedKeys.problem(with: key) != nil)
  }

  @Test func usableKeys() {
    #expect(AppliedKeys.problem(with: "Zm9v-YmFy_0123456789ab") == nil)
    #expect(AppliedKeys.problem(with: String(repeating: "a", count: 64)) == nil)
  }
}

/// The same over real sockets, with the Swift client: members of one room retrying one
/// action apply it once.
@Suite(.timeLimit(.minutes(1))) struct AppliedKeysOverSocketsTests {
  @Test func aKeySentTwiceByTwoMembersIsAppliedOnce() async throws {
    let fixture = try ServerFixture.start()
    let ada = try await fixture.connect()
    let bob = try await fixture.connect()
    let room = try await ada.join("room/keys")
    _ = try await bob.join("room/keys")
    try await ada.send(action: Ticker.ClientAction.increment, to: "room/keys", idempotencyKey: "once")
    try await ada.send(action: Ticker.ClientAction.increment, to: "room/keys", idempotencyKey: "once")
    try await bob.send(action: Ticker.ClientAction.increment, to: "room/keys", idempotencyKey: "once")
    try await bob.send(action: Ticker.ClientAction.increment, to: "room/keys", idempotencyKey: "twice")
    #expect(await waitForState(room) { $0["count"] == 2 } != nil)
    do {
      try await ada.send(action: Ticker.ClientAction.increment, to: "room/keys", idempotencyKey: "not a key")
      Issue.record("an unusable key should be refused")
    } catch let error as StatecastError {
      #expect(error.code == "bad_message")
    }
    #expect(room.state?["count"] == 2)
    await fixture.stop()
  }
}
