import Foundation
import StatecastClient
import Testing

@testable import StatecastTransport

/// Readiness and draining: `/readyz` follows the transport's life, a draining transport
/// refuses upgrades with 503, and a shutdown can close with another code than 1001.
@Suite(.timeLimit(.minutes(1)))
struct DrainTests {
  @Test func readinessIs200WhileServingAnd503OnceDraining() async throws {
    let fixture = try TransportFixture.start()
    let before = try httpGet(port: fixture.port, path: "/readyz")
    // A raw peer: lws-based clients (the package's own) turn a 1012 into 1002.
    let peer = try RawWebSocket(port: fixture.port)
    fixture.transport.beginDraining()
    let after = try httpGet(port: fixture.port, path: "/readyz")
    let health = try httpGet(port: fixture.port, path: "/healthz")
    let socket = try RawSocket(port: fixture.port)
    try socket.write(
      "GET /ws HTTP/1.1\r\nHost: 127.0.0.1:\(fixture.port)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n")
    let refused = String(decoding: try socket.read(timeout: .seconds(30)), as: UTF8.self)
    // Open connections are left alone until the shutdown, which closes them with its code.
    async let stopped: Void = fixture.transport.shutdown(
      gracePeriod: .seconds(2), code: 1012, reason: "server restarting")
    let closed = try await onOwnThread { () -> RawWebSocket.Frame? in
      var closed: RawWebSocket.Frame?
      while closed == nil, let frame = try peer.readFrame(timeout: .seconds(30)) {
        if frame.opcode == 8 { closed = frame }
      }
      try peer.writeFrame(opcode: 8, payload: Array(closed?.payload.prefix(2) ?? []))
      return closed
    }
    await stopped
    await fixture.stop()
    #expect(before.status == 200 && before.text == "ready")
    #expect(after.status == 503)
    #expect(health.status == 200)
    #expect(refused.hasPrefix("HTTP/1.1 503 "))
    #expect(closed?.payload.prefix(2) == [0x03, 0xF4])  // 1012
    #expect(closed.map { String(decoding: $0.payload.dropFirst(2), as: UTF8.self) } == "server restarting")
  }

  @Test func readinessIs503BeforeStart() async throws {
    let transport = WebSocketTransport(
      configuration: TransportConfiguration(port: 0), handler: RecordingHandler())
    #expect(transport.isReady == false)
    try transport.start()
    #expect(transport.isReady)
    await transport.shutdown()
    #expect(transport.isReady == false)
  }
}

/// Runs blocking socket work on a thread of its own, so that it never holds one of the
/// few threads of Swift's concurrency pool that the server's own tasks need meanwhile.
func onOwnThread<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
  try await withCheckedThrowingContinuation { continuation in
    Thread { continuation.resume(with: Result { try work() }) }.start()
  }
}
