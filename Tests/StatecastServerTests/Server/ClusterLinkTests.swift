import Logging
import StatecastJSON
import StatecastStorage
import Testing

@testable import StatecastServer

/// Requests forwarded to another process, waiting for answers that will not come.
struct ClusterLinkTests {
  /// A room that changes hands ends what it waits on from its former owner at once; the
  /// same node's answers for its other rooms are still awaited.
  @Test(.timeLimit(.minutes(1)))
  func aRoomChangingHandsEndsOnlyItsOwnRequestsToItsFormerOwner() async {
    let cluster = MemoryCluster()
    let link = ClusterLink(
      backplane: cluster.node("a"), leaseDuration: .seconds(30), requestTimeout: .seconds(600),
      logger: Logger(label: "test"))
    let b = cluster.node("b")
    func forward(to room: String) -> Task<ClusterLink.Outcome, Never> {
      Task {
        await link.request(to: "b", about: room) { ref in
          .action(
            ref: ref, node: "a", room: room, session: "s", action: ["increment": [:]], key: nil, creator: nil)
        }
      }
    }
    let one = forward(to: "counter/one")
    let two = forward(to: "counter/two")
    // Both requests wait once b has both (a request is registered before it is sent).
    var delivered = ""
    for await event in b.inbox {
      if case .message(let payload) = event { delivered += payload }
      if delivered.contains("counter/one") && delivered.contains("counter/two") { break }
    }
    #expect(link.awaitedNodes == ["b"])

    link.abandonRequests(to: "b", about: "counter/one")
    #expect(await one.value == .noAnswer)
    #expect(link.awaitedNodes == ["b"], "the other room's request still waits for b's answer")

    // b is gone altogether (its heartbeat lapsed): everything waiting on it ends.
    link.abandonRequests(to: "b")
    #expect(await two.value == .noAnswer)
    #expect(link.awaitedNodes.isEmpty)
  }
}
