import Testing

@testable import StatecastTransport

@Suite struct TransportPiecesTests {
  @Test func onlyCodesAServerMaySendGoOnTheWire() {
    #expect(CloseFrame.sendableCode(1000) == 1000)
    #expect(CloseFrame.sendableCode(1009) == 1009)
    #expect(CloseFrame.sendableCode(1012) == 1012)
    #expect(CloseFrame.sendableCode(4000) == 4000)
    #expect(CloseFrame.sendableCode(1015) == 1011)
    #expect(CloseFrame.sendableCode(1005) == 1011)
    #expect(CloseFrame.sendableCode(1006) == 1011)
    #expect(CloseFrame.sendableCode(999) == 1011)
  }

  @Test func closeReasonsAreCutAtACharacterBoundary() {
    let reason = String(repeating: "é", count: 100)  // 200 bytes
    let bytes = CloseFrame.reasonBytes(reason)
    #expect(bytes.count == 122)
    #expect(String(validating: bytes, as: UTF8.self) != nil)
  }

  @Test func theLongestAppPagePrefixWins() {
    let pages = [(prefix: "/music/admin", path: "admin.html"), (prefix: "/music", path: "music.html")]
    #expect(HTTPResponder.appPage(for: "/music/admin/users", in: pages) == "admin.html")
    #expect(HTTPResponder.appPage(for: "/music/artist", in: pages) == "music.html")
    #expect(HTTPResponder.appPage(for: "/musical", in: pages) == nil)
    #expect(HTTPResponder.appPage(for: "/anything", in: [(prefix: "/", path: "index.html")]) == "index.html")
  }

  @Test func aFrameKeepsItsPayloadAndKind() {
    let text = OutboundFrame(text: "héllo")
    let binary = OutboundFrame(binary: [0, 255])
    let written = OutboundFrame(count: 3) { buffer in buffer.copyBytes(from: [1, 2, 3]) }
    #expect(text.payload == Array("héllo".utf8))
    #expect(text.kind == .text)
    #expect(binary.kind == .binary)
    #expect(binary.payload == [0, 255])
    #expect(written.payload == [1, 2, 3])
    #expect(OutboundFrame(text: "").count == 0)
  }

  @Test func invalidConfigurationsAreRefused() {
    var configuration = TransportConfiguration(port: 70_000)
    #expect(throws: TransportError.self) { try configuration.validated() }
    configuration = TransportConfiguration(port: 0)
    configuration.outboundHardLimit = configuration.outboundHighWatermark - 1
    #expect(throws: TransportError.self) { try configuration.validated() }
    configuration = TransportConfiguration(port: 0)
    configuration.appPages = ["music": "music.html"]
    #expect(throws: TransportError.self) { try configuration.validated() }
    configuration = TransportConfiguration(port: 0)
    configuration.pingInterval = .milliseconds(1_500)
    #expect(configuration.pingSeconds == 2)
    #expect(throws: Never.self) { try configuration.validated() }
  }
}
