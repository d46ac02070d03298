import Testing

@testable import StatecastServer

/// The owner's directory of forwarded members' sockets: one id per remote socket, never
/// one of the transport's, and the socket each forwarded session is on now.
struct RemoteConnectionsTests {
  @Test func aSessionThatMovesToAnotherSocketLeavesItsOldOneBehind() {
    let remotes = RemoteConnections()
    let onB = remotes.place("s", at: .init(node: "b", connection: 1), joining: true)
    #expect(onB.rawValue & (1 << 63) != 0, "never an id of this process's transport")
    #expect(remotes.address(of: onB) == .init(node: "b", connection: 1))
    #expect(remotes.address(of: ConnectionID(rawValue: 1)) == nil, "a local socket")
    #expect(remotes.socket(of: "s")?.node == "b")
    #expect(remotes.place("s", at: .init(node: "b", connection: 1)) == onB, "the same socket, the same id")
    let onC = remotes.place("s", at: .init(node: "c", connection: 1))
    #expect(onC != onB)
    #expect(remotes.address(of: onB) == nil)
    #expect(remotes.existingID(for: .init(node: "b", connection: 1)) == nil)
    #expect(remotes.sessions(on: "c").map(\.session) == ["s"])
    #expect(remotes.sessions(on: "b").isEmpty)
    #expect(remotes.nodes == ["c"])
    remotes.forget(session: "s")
    #expect(remotes.socket(of: "s") == nil)
    #expect(remotes.address(of: onC) == nil)
  }

  @Test func aSessionJoiningJustNowIsNotAmongThoseJoinedBefore() {
    let remotes = RemoteConnections()
    let before = ContinuousClock.now
    _ = remotes.place("s", at: .init(node: "b", connection: 1), joining: true)
    #expect(remotes.sessions(joinedBefore: before).isEmpty)
    #expect(remotes.sessions(joinedBefore: .now + .seconds(1)) == ["s"])
  }
}
