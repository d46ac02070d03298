import StatecastJSON
import Testing

@testable import StatecastServer

/// A follower relays an owner's frames without revision gaps: after lost messages a
/// member gets nothing of the room until its fresh snapshot.
struct RelayGuardTests {
  typealias Head = RelayGuard.FrameHead

  @Test func readsTheHeadOfSnapshotsAndPatchesOnly() {
    let snapshot = ServerMessage.snapshot(topic: "board/\"a\"", rev: 41, state: ["n": 1])
    let patch = ServerMessage.patch(topic: "counter/x", rev: 42, patch: JSONPatch([]))
    #expect(Head(snapshot.withPayload { Array($0) }) == Head(isSnapshot: true, topic: "board/\"a\"", rev: 41))
    #expect(Head(patch.withPayload { Array($0) }) == Head(isSnapshot: false, topic: "counter/x", rev: 42))
    #expect(Head(Array(#"{"op":"reply","ref":1,"status":"ok"}"#.utf8)) == nil)
    #expect(Head(Array(#"{"op":"patch","topic":"x","rev":"#.utf8)) == nil)
  }

  @Test func aGapDropsPatchesUntilTheNextSnapshot() {
    var relay = RelayGuard()
    #expect(relay.admit(Head(isSnapshot: true, topic: "r", rev: 10), to: 1) == .relay)
    #expect(relay.admit(Head(isSnapshot: false, topic: "r", rev: 11), to: 1) == .relay)
    #expect(relay.admit(Head(isSnapshot: false, topic: "r", rev: 11), to: 1) == .drop, "a duplicate")
    #expect(relay.admit(Head(isSnapshot: false, topic: "r", rev: 14), to: 1) == .gap)
    #expect(
      relay.admit(Head(isSnapshot: false, topic: "r", rev: 15), to: 1) == .drop, "waiting for a snapshot")
    #expect(relay.admit(Head(isSnapshot: false, topic: "r", rev: 12), to: 2) == .relay, "another socket")
    #expect(relay.admit(Head(isSnapshot: true, topic: "r", rev: 15), to: 1) == .relay)
    #expect(relay.admit(Head(isSnapshot: false, topic: "r", rev: 16), to: 1) == .relay)
  }

  @Test func aCongestedMemberAsksForItsSnapshotOncePerWait() {
    var relay = RelayGuard()
    #expect(relay.admit(Head(isSnapshot: true, topic: "r", rev: 1), to: 1) == .relay)
    var asked = relay.requestSnapshot(of: "r", on: 1)
    #expect(!asked, "not waiting")
    relay.awaitSnapshot(of: "r", on: 1)
    asked = relay.requestSnapshot(of: "r", on: 1)
    #expect(asked)
    asked = relay.requestSnapshot(of: "r", on: 1)
    #expect(!asked, "asked already: the socket drained again")
    #expect(relay.admit(Head(isSnapshot: true, topic: "r", rev: 7), to: 1) == .relay)
    relay.awaitSnapshot(of: "r", on: 1)
    asked = relay.requestSnapshot(of: "r", on: 1)
    #expect(asked, "a new wait asks again")
  }

  @Test func aMemberJoiningAgainWaitsForItsSnapshotAndLeavingForgetsIt() {
    var relay = RelayGuard()
    #expect(relay.admit(Head(isSnapshot: false, topic: "r", rev: 3), to: 1) == .relay)
    relay.awaitSnapshot(of: "r", on: 1)
    #expect(relay.admit(Head(isSnapshot: false, topic: "r", rev: 4), to: 1) == .drop)
    #expect(relay.admit(Head(isSnapshot: true, topic: "r", rev: 9), to: 1) == .relay)
    relay.forget("r", on: 1)
    #expect(relay.count == 0)
  }
}
