import StatecastClient
import Testing
@testable import StatecastServer

@Suite struct SmokeTests {
  @Test func echoOverWs() async throws {
    let fixture = try TransportFixture.start(echoes: true)
    let response = try httpGet(port: fixture.port, path: "/healthz")
    #expect(response.status == 200)
    #expect(response.text == "ok")
    let connection = try await fixture.client.connect(to: fixture.wsURL, subprotocols: ["statecast.v1"])
    #expect(connection.subprotocol == "statecast.v1")
    connection.send(text: "hello")
    let event = await connection.nextEvent()
    #expect(event == .text(Array("hello".utf8)))
    await fixture.stop()
  }
}
