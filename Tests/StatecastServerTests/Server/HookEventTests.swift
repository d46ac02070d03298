import Foundation
import Statecast
import StatecastJSON
import Testing

@testable import StatecastServer

/// Events an effect pushes to the hooks of a topic: to the members that asked for them,
/// to one viewer's tabs, never kept for a resume.
@Suite(.timeLimit(.minutes(1))) struct HookEventTests {
  /// A store whose client action names an event its effect pushes, to everyone, or
  /// only to the viewer named in the action.
  enum Shout: Decodable, Sendable {
    case everyone(name: String, size: Int)
    case only(name: String, viewer: String)
  }

  let ada = Viewer(id: "ada", name: "Ada")
  let bob = Viewer(id: "bob", name: "Bob")

  func makeHost(sink: RecordingSink) async -> (StoreHost<Int, Shout, Shout, Int>, Store<Int, Shout>) {
    let (ada, bob) = (ada, bob)
    let store = Store<Int, Shout>(
      initialState: 0,
      reducer: Reducer { _, action in
        .run { send in
          switch action {
          case .everyone(let name, let size): send.event(name, ["text": String(repeating: "x", count: size)])
          case .only(let name, let viewer): send.event(name, to: viewer == "ada" ? ada : bob)
          }
        }
      })
    let host = await StoreHost(
      topic: "room", store: store, embed: { action, _ in action }, view: { state, _ in state },
      canSend: { _, _, _ in true }, sink: sink)
    return (host, store)
  }

  func join(_ session: String, _ viewer: Viewer, events: Bool) -> JoinRequest {
    var request = JoinRequest(
      topic: "room", pathParameters: [:], params: [:], session: session, viewer: viewer)
    request.receivesEvents = events
    return request
  }

  @Test func anEventReachesTheMembersThatAskedAndIsNeverReplayed() async throws {
    let sink = RecordingSink()
    let (host, store) = await makeHost(sink: sink)
    let (a1, a2, b1) = (ConnectionID(rawValue: 1), ConnectionID(rawValue: 2), ConnectionID(rawValue: 3))
    #expect(await host.attach(join("a1", ada, events: true), connection: a1))
    #expect(await host.attach(join("a2", ada, events: false), connection: a2))
    #expect(await host.attach(join("b1", bob, events: true), connection: b1))
    for connection in [a1, a2, b1] { _ = sink.take(connection) }

    await store.send(.everyone(name: "toast", size: 3)).finish()
    let expected: JSON = ["op": "event", "topic": "room", "event": "toast", "payload": ["text": "xxx"]]
    #expect(sink.take(a1) == [expected])
    #expect(sink.take(b1) == [expected])
    #expect(sink.take(a2).isEmpty, "a tab that did not ask for events gets none")

    await store.send(.only(name: "focus", viewer: "bob")).finish()
    #expect(sink.take(b1) == [["op": "event", "topic": "room", "event": "focus", "payload": .null]])
    #expect(sink.take(a1).isEmpty)

    // A resume replays patches, never events.
    host.detach("b1", from: b1)
    await store.send(.everyone(name: "toast", size: 1)).finish()
    #expect(sink.take(a1).count == 1)
    host.reattach("b1", connection: b1, after: 0)
    #expect(sink.take(b1).allSatisfy { $0["op"] != "event" })
  }

  @Test func anOversizedEventIsDroppedAndTheTopicGoesOn() async throws {
    let sink = RecordingSink()
    let (host, store) = await makeHost(sink: sink)
    let a1 = ConnectionID(rawValue: 1)
    #expect(await host.attach(join("a1", ada, events: true), connection: a1))
    _ = sink.take(a1)
    await store.send(.everyone(name: "big", size: ServerMessage.maxEventPayloadBytes)).finish()
    await store.send(.everyone(name: String(repeating: "n", count: 65), size: 1)).finish()
    await store.send(.everyone(name: "small", size: 1)).finish()
    #expect(sink.take(a1).map { $0["event"] } == ["small"])
  }

}
