import Foundation
import Logging
import ServiceLifecycle
import Statecast
import StatecastClient
import Testing

@testable import StatecastServer

/// A graceful shutdown of `run()`'s service group drains: readiness 503, then every
/// socket closed with 1012 ("server restarting").
@Suite(.timeLimit(.minutes(1)))
struct ServerDrainTests {
  @Test func aGracefulShutdownClosesSocketsWith1012() async throws {
    var configuration = ServerConfiguration()
    configuration.port = 0
    configuration.publicDirectory = nil
    configuration.drainTimeout = .seconds(1)
    let (ports, portSink) = AsyncStream.makeStream(of: Int.self)
    let server = StatecastServer(
      configuration: configuration, routes: [.perSession("ticker", Ticker.self, dependencies: Probe())],
      onServerRunning: { port in portSink.yield(port) })
    let group = ServiceGroup(services: [server], gracefulShutdownSignals: [], logger: Logger(label: "test"))
    let running = Task { try await group.run() }
    guard let port = await ports.first(where: { _ in true }) else {
      Issue.record("the server never ran")
      return
    }
    // A raw peer: lws-based clients (the package's own) turn a 1012 into 1002.
    let peer = try RawPeer(port: port)
    let ready = try rawGet(port: port, path: "/readyz")
    await group.triggerGracefulShutdown()
    let close = try await onOwnThread { try peer.closeFrame() }
    try await running.value
    #expect(ready.hasPrefix("HTTP/1.1 200"))
    #expect(close?.prefix(2) == [0x03, 0xF4])  // 1012
    #expect(close.map { String(decoding: $0.dropFirst(2), as: UTF8.self) } == "server restarting")
  }
}

/// A WebSocket peer over a plain socket that upgrades at `/ws` and reads until the
/// server's close frame.
final class RawPeer: @unchecked Sendable {
  // Sendable: used by one thread at a time.
  let descriptor: Int32
  var buffer: [UInt8] = []

  /// - Parameter receiveBuffer: the socket's receive buffer in bytes (set before it
  ///   connects, so that a peer that stops reading backs the server up quickly).
  init(port: Int, receiveBuffer: Int32? = nil) throws {
    descriptor = try connectLoopback(port: port, receiveBuffer: receiveBuffer)
    let request =
      "GET /ws HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
      + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
    _ = Array(request.utf8).withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, 0) }
    while buffer.firstRange(of: Array("\r\n\r\n".utf8)) == nil {
      guard receive() else { throw CocoaError(.fileReadUnknown) }
    }
    let end = buffer.firstRange(of: Array("\r\n\r\n".utf8))!.upperBound
    guard String(decoding: buffer[..<end], as: UTF8.self).hasPrefix("HTTP/1.1 101") else {
      throw CocoaError(.fileReadUnknown)
    }
    buffer.removeSubrange(..<end)
  }

  deinit { close(descriptor) }

  private func receive() -> Bool {
    var chunk = [UInt8](repeating: 0, count: 4096)
    let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
    guard count > 0 else { return false }
    buffer += chunk[..<count]
    return true
  }

  /// Sends `text` as one masked text frame (with a zero mask key, which leaves it as is).
  func sendText(_ text: String) {
    let payload = Array(text.utf8)
    var frame: [UInt8] = [0x81]
    if payload.count < 126 {
      frame.append(0x80 | UInt8(payload.count))
    } else {
      frame += [0x80 | 126, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
    }
    frame += [0, 0, 0, 0] + payload
    _ = frame.withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, 0) }
  }

  /// The payload of the server's close frame (code and reason), skipping other frames;
  /// `nil` if the connection ends without one.
  func closeFrame() throws -> [UInt8]? {
    while let frame = nextFrame() {
      if frame.opcode == 8 { return frame.payload }
    }
    return nil
  }

  /// The server's next frame; a close frame is answered (masked, zero key), so the
  /// server can close at once. `nil` if the connection ends first. Frames from a server
  /// are never masked.
  func nextFrame() -> (opcode: UInt8, payload: [UInt8])? {
    while true {
      while buffer.count >= 2 {
        let opcode = buffer[0] & 0x0F
        var length = Int(buffer[1] & 0x7F)
        var offset = 2
        if length == 126 {
          guard buffer.count >= 4 else { break }
          length = Int(buffer[2]) << 8 | Int(buffer[3])
          offset = 4
        } else if length == 127 {
          guard buffer.count >= 10 else { break }
          length = (2..<10).reduce(0) { $0 << 8 | Int(buffer[$1]) }
          offset = 10
        }
        guard buffer.count >= offset + length else { break }
        let payload = Array(buffer[offset..<offset + length])
        buffer.removeSubrange(..<(offset + length))
        if opcode == 8 {
          let reply: [UInt8] = [0x88, 0x80 | UInt8(min(payload.count, 2)), 0, 0, 0, 0] + payload.prefix(2)
          _ = reply.withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, 0) }
        }
        return (opcode, payload)
      }
      guard receive() else { return nil }
    }
  }
}

func connectLoopback(port: Int, receiveBuffer: Int32? = nil) throws -> Int32 {
  let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
  if var size = receiveBuffer {
    setsockopt(descriptor, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
  }
  var address = sockaddr_in()
  address.sin_family = sa_family_t(AF_INET)
  address.sin_port = in_port_t(UInt16(port).bigEndian)
  inet_pton(AF_INET, "127.0.0.1", &address.sin_addr)
  let connected = withUnsafePointer(to: &address) { pointer in
    pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
      connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
    }
  }
  guard connected == 0 else {
    close(descriptor)
    throw CocoaError(.fileReadUnknown)
  }
  return descriptor
}

/// One `GET` over a plain socket with `Connection: close`; the whole response as text.
func rawGet(port: Int, path: String) throws -> String {
  let descriptor = try connectLoopback(port: port)
  defer { close(descriptor) }
  let request = Array("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".utf8)
  _ = request.withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, 0) }
  var response: [UInt8] = []
  var buffer = [UInt8](repeating: 0, count: 4096)
  while true {
    let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
    if count <= 0 { break }
    response += buffer[..<count]
  }
  return String(decoding: response, as: UTF8.self)
}

/// Runs blocking socket work on a thread of its own, so that it never holds one of the
/// few threads of Swift's concurrency pool that the server's own tasks need meanwhile.
func onOwnThread<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
  try await withCheckedThrowingContinuation { continuation in
    Thread { continuation.resume(with: Result { try work() }) }.start()
  }
}
