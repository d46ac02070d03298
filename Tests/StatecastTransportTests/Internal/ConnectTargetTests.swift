import Testing

@testable import StatecastTransport

@Suite struct ConnectTargetTests {
  @Test func wsURLsGiveAddressPortPathAndHostHeader() throws {
    let plain = try #require(ConnectTarget(url: "ws://127.0.0.1:8080/ws"))
    #expect(plain.address == "127.0.0.1")
    #expect(plain.port == 8080)
    #expect(plain.path == "/ws")
    #expect(plain.hostHeader == "127.0.0.1:8080")
    #expect(!plain.tls)
    let secure = try #require(ConnectTarget(url: "wss://example.com/ws?x=1"))
    #expect(secure.port == 443)
    #expect(secure.tls)
    #expect(secure.path == "/ws?x=1")
    #expect(secure.hostHeader == "example.com")
    let v6 = try #require(ConnectTarget(url: "ws://[::1]:9000"))
    #expect(v6.address == "::1")
    #expect(v6.path == "/")
    #expect(v6.hostHeader == "[::1]:9000")
  }

  @Test func otherURLsAreRefused() {
    #expect(ConnectTarget(url: "http://127.0.0.1/ws") == nil)
    #expect(ConnectTarget(url: "ws:///ws") == nil)
    #expect(ConnectTarget(url: "not a url") == nil)
  }
}
