import StatecastClient
import StatecastJSON
import Testing

@testable import StatecastTransport

/// The Swift protocol client against a minimal protocol server on the real transport.
@Suite(.timeLimit(.minutes(1)))
struct StatecastConnectionTests {
  struct Server {
    let transport: WebSocketTransport
    let protocolServer: MiniProtocolServer
    let url: String

    static func start() throws -> Server {
      let protocolServer = MiniProtocolServer()
      let transport = WebSocketTransport(
        configuration: TransportConfiguration(port: 0), handler: protocolServer)
      protocolServer.transport = transport
      let port = try transport.start()
      return Server(transport: transport, protocolServer: protocolServer, url: "ws://127.0.0.1:\(port)/ws")
    }
  }

  @Test func joinThenActionsStreamTheStates() async throws {
    let server = try Server.start()
    let connection = try await StatecastConnection.connect(to: server.url)
    let counter = try await connection.join("counter")
    #expect(counter.state == ["count": 0])
    #expect(counter.revision == 10)
    try await connection.send(action: ["increment": [:]] as JSON, to: "counter")
    #expect(counter.state == ["count": 1])
    #expect(counter.revision == 11)
    try await connection.send(action: ["increment": [:]] as JSON, to: "counter")
    connection.close()
    var states: [JSON] = []
    for await state in counter.states { states.append(state) }
    await server.transport.shutdown()
    #expect(connection.sessionID == "session-1")
    #expect(states == [["count": 0], ["count": 1], ["count": 2]])
  }

  @Test func errorRepliesThrowTheirCode() async throws {
    let server = try Server.start()
    let connection = try await StatecastConnection.connect(to: server.url)
    await #expect(throws: StatecastError(code: "unknown_topic", message: "no route matches")) {
      try await connection.join("nowhere")
    }
    await #expect(throws: StatecastError(code: "not_joined", message: "join the topic first")) {
      try await connection.send(action: ["increment": [:]] as JSON, to: "counter")
    }
    _ = try await connection.join("counter")
    await #expect(throws: StatecastError(code: "bad_action", message: "unknown action")) {
      try await connection.send(action: ["explode": [:]] as JSON, to: "counter")
    }
    connection.close()
    await server.transport.shutdown()
  }

  @Test func aPatchThatSkipsARevisionIsRepairedWithASnapshot() async throws {
    let server = try Server.start()
    let connection = try await StatecastConnection.connect(to: server.url)
    let counter = try await connection.join("counter")
    server.protocolServer.skipNextRevision = true
    try await connection.send(action: ["increment": [:]] as JSON, to: "counter")
    // The gap makes the client join again; the fresh snapshot carries the right state.
    var states: [JSON] = []
    for await state in counter.states {
      states.append(state)
      if state == ["count": 1] { break }
    }
    connection.close()
    await server.transport.shutdown()
    #expect(states == [["count": 0], ["count": 1]])
    #expect(counter.revision == 12)
  }

  @Test func reconnectResumesTheSessionAndCatchesUp() async throws {
    let server = try Server.start()
    let connection = try await StatecastConnection.connect(to: server.url)
    let other = try await StatecastConnection.connect(to: server.url)
    let counter = try await connection.join("counter")
    _ = try await other.join("counter")
    try await connection.send(action: ["increment": [:]] as JSON, to: "counter")

    // Drop the first socket from the server side, change the state meanwhile.
    server.transport.close(ConnectionID(slot: 0, generation: 1), code: 1001, reason: "dropped")
    _ = await connection.socketClosed()
    try await other.send(action: ["increment": [:]] as JSON, to: "counter")
    try await other.send(action: ["increment": [:]] as JSON, to: "counter")

    let resumed = try await connection.reconnect()
    try await connection.send(action: ["increment": [:]] as JSON, to: "counter")
    connection.close()
    other.close()
    await server.transport.shutdown()
    #expect(resumed)
    #expect(connection.sessionID == "session-1")
    #expect(counter.state == ["count": 4])
    #expect(counter.revision == 14)
  }

  @Test func reconnectToAServerThatForgotTheSessionJoinsAgain() async throws {
    let server = try Server.start()
    let connection = try await StatecastConnection.connect(to: server.url)
    let counter = try await connection.join("counter")
    try await connection.send(action: ["increment": [:]] as JSON, to: "counter")
    server.protocolServer.forgetDisconnectedSessions = true
    server.transport.close(ConnectionID(slot: 0, generation: 1), code: 1001, reason: "dropped")
    _ = await connection.socketClosed()

    let resumed = try await connection.reconnect()
    try await connection.send(action: ["increment": [:]] as JSON, to: "counter")
    connection.close()
    await server.transport.shutdown()
    #expect(!resumed)
    #expect(connection.sessionID == "session-2")
    #expect(counter.state == ["count": 2])
  }

  @Test func pendingRequestsFailWhenTheSocketCloses() async throws {
    let server = try Server.start()
    let connection = try await StatecastConnection.connect(to: server.url)
    await server.transport.shutdown()
    _ = await connection.socketClosed()
    await #expect(throws: StatecastError.self) { try await connection.join("counter") }
    #expect(connection.closeCode == 1001)
  }
}
