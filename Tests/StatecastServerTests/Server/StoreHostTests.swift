import Foundation
import Statecast
import StatecastJSON
import Testing

@testable import StatecastServer

/// A topic host against an in-memory sink: revisions, resumes and slow readers, where
/// the transport's answers can be chosen.
@Suite(.timeLimit(.minutes(1))) struct StoreHostTests {
  let connection = ConnectionID(rawValue: 1)
  let request = JoinRequest(
    topic: "ticker", pathParameters: [:], params: [:], session: "s1", viewer: .anonymous)

  func makeHost(sink: RecordingSink) async -> (
    StoreHost<Ticker.State, Ticker.Action, Ticker.ClientAction, Ticker.ViewState>,
    Store<Ticker.State, Ticker.Action>
  ) {
    let store = Ticker.makeStore(probe: Probe())
    let host = await StoreHost(
      topic: "ticker", store: store, embed: { action, _ in .client(action) },
      view: { state, _ in Ticker.viewState(state) }, canSend: { _, _, _ in true }, sink: sink)
    return (host, store)
  }

  @Test func eachChangeIsOnePatchWithTheNextRevision() async throws {
    let sink = RecordingSink()
    let (host, _) = await makeHost(sink: sink)
    #expect(await host.attach(request, connection: connection))
    let snapshot = try #require(sink.take(connection).first)
    #expect(snapshot["op"] == "snapshot" && snapshot["state"] == ["count": 0, "ticks": 0])
    let rev = try #require(snapshot["rev"]?.int64Value)
    #expect(await host.outcome(["increment": [:]], from: "s1") == nil)
    #expect(await host.outcome(["add": ["amount": 2]], from: "s1") == nil)
    let patches = sink.take(connection)
    #expect(patches.map { $0["rev"]?.int64Value } == [rev + 1, rev + 2])
    #expect(patches[1]["ops"] == [["op": "replace", "path": "/count", "value": 3]])
  }

  @Test func aBadActionChangesNothing() async throws {
    let sink = RecordingSink()
    let (host, store) = await makeHost(sink: sink)
    #expect(await host.attach(request, connection: connection))
    _ = sink.take(connection)
    let error = await host.outcome(["add": ["amount": "lots"]], from: "s1")
    #expect(error?.code == .badAction)
    #expect(error?.message.contains("amount") == true)
    #expect(
      await host.outcome(["increment": [:]], from: "someone else")
        == ProtocolError(.notJoined, "not joined to ticker"))
    #expect(sink.take(connection).isEmpty)
    #expect(await store.state.count == 0)
  }

  @Test func aCongestedMemberSkipsPatchesThenGetsOneSnapshot() async throws {
    let sink = RecordingSink()
    let (host, _) = await makeHost(sink: sink)
    #expect(await host.attach(request, connection: connection))
    _ = sink.take(connection)
    sink.congested = true
    _ = await host.outcome(["increment": [:]], from: "s1")  // queued, and now congested
    _ = await host.outcome(["increment": [:]], from: "s1")  // skipped
    _ = await host.outcome(["increment": [:]], from: "s1")  // skipped
    #expect(sink.take(connection).count == 1)
    sink.congested = false
    host.resync("s1")
    let caughtUp = sink.take(connection)
    #expect(caughtUp.count == 1)
    #expect(caughtUp.first?["op"] == "snapshot" && caughtUp.first?["state"]?["count"] == 3)
    host.resync("s1")
    #expect(sink.take(connection).isEmpty)
  }

  @Test func aResumeReplaysMissedPatchesOrFallsBackToASnapshot() async throws {
    let sink = RecordingSink()
    let (host, _) = await makeHost(sink: sink)
    #expect(await host.attach(request, connection: connection))
    let start = try #require(sink.take(connection).first?["rev"]?.int64Value)
    host.detach("s1", from: connection)
    for _ in 0..<3 { _ = await host.outcome(["increment": [:]], from: "s1") }
    #expect(sink.take(connection).isEmpty)
    let second = ConnectionID(rawValue: 2)
    host.reattach("s1", connection: second, after: Int(start) + 1)
    #expect(sink.take(second).map { $0["rev"]?.int64Value } == [start + 2, start + 3])
    // A late detach from the socket the member has left does not cut its new one off.
    host.detach("s1", from: connection)
    _ = await host.outcome(["increment": [:]], from: "s1")
    #expect(sink.take(second).count == 1)
    // Older than the history holds: a snapshot.
    host.detach("s1", from: second)
    for _
      in 0..<(StoreHost<Ticker.State, Ticker.Action, Ticker.ClientAction, Ticker.ViewState>.historyCapacity
      + 1)
    {
      _ = await host.outcome(["increment": [:]], from: "s1")
    }
    host.reattach("s1", connection: second, after: Int(start) + 4)
    let frames = sink.take(second)
    #expect(frames.count == 1 && frames.first?["op"] == "snapshot")
  }

  @Test func theLastMemberLeavingClosesTheStore() async throws {
    let sink = RecordingSink()
    let (host, store) = await makeHost(sink: sink)
    #expect(await host.attach(request, connection: connection))
    #expect(await host.remove("s1"))
    #expect(await store.isClosed)
    // A closed topic takes no new members: the server then opens a fresh one.
    #expect(await !host.attach(request, connection: connection))
  }
}

extension TopicHost {
  /// `perform`'s error, or `nil` when the action went through.
  func outcome(_ action: JSON, key: String? = nil, from session: String) async -> ProtocolError? {
    do {
      try await perform(action, key: key, from: session)
      return nil
    } catch {
      return error
    }
  }
}
