import Foundation
import Statecast
import StatecastJSON
import Testing

@testable import StatecastServer

/// A connection's messages against an in-memory sink whose congestion the test
/// chooses: the order of snapshots, patches and replies a browser receives.
@Suite(.timeLimit(.minutes(1))) struct ConnectionTests {
  let id = ConnectionID(rawValue: 1)

  /// A connection, its topics, and a stream that ends when the connection has handled
  /// every message after ``Connection/finish()``.
  func makeConnection(sink: RecordingSink) -> (Connection, TopicRegistry, AsyncStream<Void>) {
    let route = Route.perSession("ticker", Ticker.self, dependencies: Probe())
    let topics = TopicRegistry(routes: route.topics, sink: sink, maxTopicsPerSession: 8)
    let sessions = SessionRegistry(topics: topics, gracePeriod: .seconds(30))
    let session = sessions.open(on: id, viewer: .guest())
    let (finished, continuation) = AsyncStream<Void>.makeStream()
    let connection = Connection(
      id: id, session: session, configuration: ServerConfiguration(), sink: sink, sessions: sessions,
      topics: topics, onFinished: { _ in continuation.finish() })
    return (connection, topics, finished)
  }

  func message(_ json: JSON) -> Connection.Inbound {
    var bytes: [UInt8] = []
    json.serialize(into: &bytes)
    return .message(bytes)
  }

  @Test func noReplyOvertakesTheSnapshotThatCarriesItsEffect() async throws {
    let sink = RecordingSink()
    let (connection, topics, finished) = makeConnection(sink: sink)
    connection.receive(message(["op": "join", "ref": 0, "topic": "ticker"]))
    // The socket is congested from the first action's patch on: the topic skips the
    // next patches, and the replies must wait for the catch-up snapshot.
    sink.congested = true
    for ref in 1...3 {
      connection.receive(
        message(["op": "action", "ref": .int(Int64(ref)), "topic": "ticker", "action": ["increment": [:]]]))
    }
    connection.finish()
    for await _ in finished {}
    let beforeDrain = sink.take(id)
    #expect(beforeDrain.map { $0["op"] } == ["snapshot", "reply", "patch"])
    #expect(beforeDrain[2]["ops"] == [["op": "replace", "path": "/count", "value": 1]])

    // The socket drained: the snapshot first, then every held reply in order.
    sink.congested = false
    topics.resync(connection.session.id)
    connection.releaseHeldReplies()
    let afterDrain = sink.take(id)
    #expect(afterDrain.map { $0["op"] } == ["snapshot", "reply", "reply", "reply"])
    #expect(afterDrain.first?["state"]?["count"] == 3)
    #expect(afterDrain.dropFirst().map { $0["ref"] } == [1, 2, 3])
  }

  /// Errors speak JSON to the client author: what was wrong with the text, or which
  /// value should have been what, never Swift's decoder vocabulary.
  @Test func malformedMessagesAreExplainedInTheWordsOfJSON() async throws {
    let sink = RecordingSink()
    let (connection, _, finished) = makeConnection(sink: sink)
    connection.receive(message(["op": "join", "ref": 0, "topic": "ticker"]))
    connection.receive(message(["op": "action", "ref": 1, "topic": "ticker", "action": .null]))
    connection.receive(
      message(["op": "action", "ref": 2, "topic": "ticker", "action": ["add": ["amount": "two"]]]))
    connection.receive(.message(Array(String(repeating: "[", count: 200).utf8)))
    connection.receive(.message(Array("[1]".utf8)))
    connection.finish()
    for await _ in finished {}
    let errors = sink.take(id).filter { $0["status"] == "error" }.map {
      ($0["error"]?["code"], $0["error"]?["message"])
    }
    #expect(errors.map(\.0) == ["bad_action", "bad_action", "bad_json", "bad_json"])
    #expect(errors[0].1 == "the action is null; it should be an object")
    #expect(errors[1].1 == "action.add.amount should be an integer")
    #expect(errors[2].1?.stringValue?.hasPrefix("the message is not valid JSON: nesting deeper than") == true)
    #expect(errors[3].1 == "the message is not a JSON object")
  }
}
