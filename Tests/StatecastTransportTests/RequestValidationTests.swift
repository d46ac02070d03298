import Foundation
import Testing

@testable import StatecastTransport

/// Requests libwebsockets would accept or leave unanswered on its own: malformed
/// upgrades, unknown methods, oversized headers. Each is sent over a raw socket and
/// must get an HTTP/1.1 status.
@Suite(.timeLimit(.minutes(1)))
struct RequestValidationTests {
  /// Sends `request` and returns the response's head (status line and headers), read
  /// until the blank line or the end of the connection.
  private func exchange(_ request: String, port: Int) throws -> String {
    let socket = try RawSocket(port: port)
    try socket.write(request)
    var received: [UInt8] = []
    while received.firstRange(of: Array("\r\n\r\n".utf8)) == nil {
      let chunk = try socket.read(timeout: .seconds(5))
      if chunk.isEmpty { break }
      received += chunk
    }
    return String(decoding: received, as: UTF8.self)
  }

  private func upgrade(
    port: Int, version: String = "HTTP/1.1", keys: [String] = ["dGhlIHNhbXBsZSBub25jZQ=="],
    versions: [String] = ["13"], extra: String = ""
  ) -> String {
    var request =
      "GET /ws \(version)\r\nHost: 127.0.0.1:\(port)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
    for key in keys { request += "Sec-WebSocket-Key: \(key)\r\n" }
    for value in versions { request += "Sec-WebSocket-Version: \(value)\r\n" }
    return request + extra + "\r\n"
  }

  @Test func aWellFormedUpgradeSwitchesProtocols() async throws {
    let fixture = try TransportFixture.start()
    let answer = try exchange(upgrade(port: fixture.port), port: fixture.port)
    await fixture.stop()
    #expect(answer.hasPrefix("HTTP/1.1 101"))
  }

  @Test(arguments: [
    ["abc"], ["dGhlIHNhbXBsZSBub25jZQ==", "dGhlIHNhbXBsZSBub25jZQ=="], [], ["dGhlIHNhbXBsZSBub25jZQ"],
  ])
  func aBadKeyIsRefusedWith400(keys: [String]) async throws {
    let fixture = try TransportFixture.start()
    let answer = try exchange(upgrade(port: fixture.port, keys: keys), port: fixture.port)
    await fixture.stop()
    #expect(answer.hasPrefix("HTTP/1.1 400"), "\(answer)")
  }

  @Test(arguments: [["8"], ["14"], ["99999999999"], [], ["13, 8"], ["13", "8"]])
  func aBadVersionIsRefusedWith426(versions: [String]) async throws {
    let fixture = try TransportFixture.start()
    let answer = try exchange(upgrade(port: fixture.port, versions: versions), port: fixture.port)
    await fixture.stop()
    #expect(answer.hasPrefix("HTTP/1.1 426"), "\(answer)")
    #expect(answer.contains("\r\nSec-WebSocket-Version: 13\r\n"))
  }

  @Test func anUpgradeOverHTTP10IsRefusedWith400() async throws {
    let fixture = try TransportFixture.start()
    let answer = try exchange(upgrade(port: fixture.port, version: "HTTP/1.0"), port: fixture.port)
    await fixture.stop()
    #expect(answer.hasPrefix("HTTP/1.1 400"), "\(answer)")
  }

  @Test func anH2CUpgradeIsRefusedWith400() async throws {
    let fixture = try TransportFixture.start()
    let answer = try exchange(
      "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: Upgrade, HTTP2-Settings\r\nUpgrade: h2c\r\n"
        + "HTTP2-Settings: AAMAAABkAARAAAAAAAIAAAAA\r\n\r\n", port: fixture.port)
    await fixture.stop()
    #expect(answer.hasPrefix("HTTP/1.1 400"), "\(answer)")
  }

  @Test func aRefusedOriginIsAnsweredInHTTP11() async throws {
    let fixture = try TransportFixture.start()
    let answer = try exchange(
      upgrade(port: fixture.port, extra: "Origin: http://evil.example\r\n"), port: fixture.port)
    await fixture.stop()
    #expect(answer.hasPrefix("HTTP/1.1 403"), "\(answer)")
  }

  @Test func aConnectRequestIsAnswered405AndClosed() async throws {
    let fixture = try TransportFixture.start()
    let socket = try RawSocket(port: fixture.port)
    try socket.write("CONNECT 127.0.0.1:443 HTTP/1.1\r\nHost: 127.0.0.1:443\r\n\r\n")
    let answer = String(decoding: try socket.readToEnd(timeout: .seconds(5)), as: UTF8.self)
    await fixture.stop()
    #expect(answer.hasPrefix("HTTP/1.1 405"), "\(answer)")
  }

  @Test(arguments: ["BREW", "PROPFIND", "XYZ"])
  func anUnknownMethodIsAnswered501AndClosed(method: String) async throws {
    let fixture = try TransportFixture.start()
    let socket = try RawSocket(port: fixture.port)
    try socket.write("\(method) / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
    let answer = String(decoding: try socket.readToEnd(timeout: .seconds(5)), as: UTF8.self)
    await fixture.stop()
    #expect(answer.hasPrefix("HTTP/1.1 501"), "\(answer)")
  }

  @Test(arguments: [6_000, 15_000])
  func aLargeCookieWithinTheLimitIsServed(size: Int) async throws {
    let fixture = try TransportFixture.start()
    let cookie = String(repeating: "a", count: size)
    let answer = try exchange(
      "GET /index.html HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: c=\(cookie)\r\n\r\n", port: fixture.port)
    await fixture.stop()
    #expect(answer.hasPrefix("HTTP/1.1 200"), "\(answer.prefix(200))")
  }

  @Test func aLargeCookieWithinTheLimitStillUpgrades() async throws {
    let fixture = try TransportFixture.start()
    let cookie = String(repeating: "a", count: 12_000)
    let answer = try exchange(
      upgrade(port: fixture.port, extra: "Cookie: c=\(cookie)\r\n"), port: fixture.port)
    await fixture.stop()
    #expect(answer.hasPrefix("HTTP/1.1 101"), "\(answer.prefix(200))")
  }

  @Test func headersOverTheLimitAreAnswered431() async throws {
    let fixture = try TransportFixture.start()
    let cookie = String(repeating: "a", count: 20_000)
    let page = try exchange(
      "GET /index.html HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: c=\(cookie)\r\n\r\n", port: fixture.port)
    let upgrade = try exchange(
      upgrade(port: fixture.port, extra: "Cookie: c=\(cookie)\r\n"), port: fixture.port)
    await fixture.stop()
    #expect(page.hasPrefix("HTTP/1.1 431"), "\(page.prefix(200))")
    #expect(upgrade.hasPrefix("HTTP/1.1 431"), "\(upgrade.prefix(200))")
  }

  @Test func theHeaderLimitIsConfigurable() async throws {
    let fixture = try TransportFixture.start { $0.maxRequestHeaderSize = 40_000 }
    let cookie = String(repeating: "a", count: 30_000)
    let answer = try exchange(
      "GET /index.html HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: c=\(cookie)\r\n\r\n", port: fixture.port)
    await fixture.stop()
    #expect(answer.hasPrefix("HTTP/1.1 200"), "\(answer.prefix(200))")
  }

  @Test(arguments: [
    (["HTTP/1.1", "dGhlIHNhbXBsZSBub25jZQ==", "13"], nil as Int?),
    (["HTTP/1.1", "abc", "13"], 400),
    (["HTTP/1.0", "dGhlIHNhbXBsZSBub25jZQ==", "13"], 400),
    (["HTTP/1.1", "dGhlIHNhbXBsZSBub25jZQ==", "8"], 426),
  ])
  func upgradeRequestRules(parts: [String], status: Int?) {
    let request = UpgradeRequest(httpVersion: parts[0], keys: [parts[1]], versions: [parts[2]])
    #expect(request.refusal?.status == status)
  }
}
