import Foundation
import Testing

@testable import StatecastTransport

/// The upgrade check: refusals answered in HTTP/1.1 before any WebSocket exists, and the
/// accepted identity handed to the handler.
@Suite(.timeLimit(.minutes(1)))
struct UpgradeCheckTests {
  /// Accepts `Cookie: sid=good-<name>` as `<name>`, refuses a bad cookie with 403 and a
  /// missing one with 401; the `Authorization` header and the query are read too.
  static func start() throws -> TransportFixture {
    try TransportFixture.start {
      $0.upgradeHeaderNames = ["X-Tenant"]
      $0.upgradeCheck = { request in
        if request.header("authorization") == "Bearer letmein" {
          return .accept(
            identity: "bearer \(request.path) \(request.peerAddress) \(request.header("x-tenant") ?? "-")")
        }
        guard let sid = request.cookie(named: "sid") else {
          return .refuse(status: 401, reason: "sign in first")
        }
        guard sid.hasPrefix("good-") else { return .refuse(status: 403, reason: "bad session") }
        return .accept(identity: String(sid.dropFirst(5)))
      }
    }
  }

  static func upgrade(port: Int, path: String = "/ws", headers: [String], toEnd: Bool = false) throws -> (
    String, RawSocket
  ) {
    let socket = try RawSocket(port: port)
    var request =
      "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
    request += "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
    for header in headers { request += header + "\r\n" }
    try socket.write(request + "\r\n")
    return (String(decoding: toEnd ? try socket.readToEnd() : try socket.read(), as: UTF8.self), socket)
  }

  @Test func anUpgradeWithoutCredentialsIsAnswered401() async throws {
    let fixture = try Self.start()
    let (answer, _) = try Self.upgrade(port: fixture.port, headers: ["Cookie: theme=dark"], toEnd: true)
    await fixture.stop()
    #expect(answer.hasPrefix("HTTP/1.1 401 Unauthorized\r\n"))
    #expect(answer.hasSuffix("\r\n\r\nsign in first\n"))
  }

  @Test func anUpgradeWithBadCredentialsIsAnswered403() async throws {
    let fixture = try Self.start()
    let (answer, _) = try Self.upgrade(
      port: fixture.port, headers: ["Cookie: theme=dark; sid=forged"], toEnd: true)
    await fixture.stop()
    #expect(answer.hasPrefix("HTTP/1.1 403 Forbidden\r\n"))
    #expect(answer.hasSuffix("bad session\n"))
  }

  @Test func theAcceptedIdentityReachesTheHandler() async throws {
    let fixture = try Self.start()
    let (answer, socket) = try Self.upgrade(port: fixture.port, headers: ["Cookie: a=1; sid=good-ada; b=2"])
    #expect(answer.hasPrefix("HTTP/1.1 101"))
    let events = await fixture.handler.events.prefix(2).reduce(into: []) { $0.append($1) }
    guard case .identified(let id, let name) = events.first, case .opened(id) = events.last else {
      Issue.record("expected identified then opened, got \(events)")
      await fixture.stop()
      return
    }
    #expect(name == "ada")
    _ = socket
    await fixture.stop()
  }

  @Test func theCheckReadsAnyHeaderThePathAndThePeer() async throws {
    let fixture = try Self.start()
    let (answer, _) = try Self.upgrade(
      port: fixture.port, path: "/ws?room=7&x=y",
      headers: ["Authorization: Bearer letmein", "X-Tenant: acme"])
    #expect(answer.hasPrefix("HTTP/1.1 101"))
    let identified = await fixture.handler.events.first { if case .identified = $0 { true } else { false } }
    await fixture.stop()
    #expect(
      identified.map { if case .identified(_, let name) = $0 { name } else { "" } }
        == "bearer /ws?room=7&x=y 127.0.0.1 acme")
  }

  @Test func theEchoEndpointIsNotChecked() async throws {
    let fixture = try TransportFixture.start { configuration in
      configuration.echo = true
      configuration.upgradeCheck = { _ in .refuse(status: 401, reason: "no") }
    }
    let (answer, _) = try Self.upgrade(port: fixture.port, path: "/echo", headers: [])
    await fixture.stop()
    #expect(answer.hasPrefix("HTTP/1.1 101"))
  }
}
