import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A blocking TCP connection to the loopback interface, for tests that must control the
/// bytes on the wire: plain HTTP requests, a WebSocket peer that never reads or never
/// answers pings.
final class RawSocket: @unchecked Sendable {
  // Sendable: used by one test at a time; the descriptor is only read and written.
  private let descriptor: Int32

  struct Failure: Error, CustomStringConvertible {
    var description: String
  }

  init(port: Int, host: String = "127.0.0.1") throws {
    descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard descriptor >= 0 else { throw Failure(description: "socket() failed") }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    inet_pton(AF_INET, host, &address.sin_addr)
    let result = withUnsafePointer(to: &address) { pointer in
      pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        Glibc.connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard result == 0 else {
      Glibc.close(descriptor)
      throw Failure(description: "connect to \(host):\(port) failed (errno \(errno))")
    }
  }

  deinit {
    Glibc.close(descriptor)
  }

  /// Shrinks the kernel's receive buffer so that a peer that does not read backs up fast.
  func setReceiveBuffer(_ bytes: Int32) {
    var value = bytes
    setsockopt(descriptor, SOL_SOCKET, SO_RCVBUF, &value, socklen_t(MemoryLayout<Int32>.size))
  }

  func write(_ bytes: [UInt8]) throws {
    var offset = 0
    while offset < bytes.count {
      let sent = bytes[offset...].withUnsafeBytes {
        Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
      }
      guard sent > 0 else { throw Failure(description: "send failed (errno \(errno))") }
      offset += sent
    }
  }

  func write(_ text: String) throws {
    try write(Array(text.utf8))
  }

  /// Up to `maximum` bytes; empty when the peer closed. Throws after `timeout` without data.
  func read(maximum: Int = 65_536, timeout: Duration = .seconds(10)) throws -> [UInt8] {
    var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
    let milliseconds = Int32(
      timeout.components.seconds * 1_000 + timeout.components.attoseconds / 1_000_000_000_000_000)
    let ready = poll(&poller, 1, milliseconds)
    guard ready > 0 else { throw Failure(description: "no data within \(timeout)") }
    var buffer = [UInt8](repeating: 0, count: maximum)
    let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
    guard count >= 0 else {
      if errno == ECONNRESET { return [] }
      throw Failure(description: "recv failed (errno \(errno))")
    }
    return Array(buffer[0..<count])
  }

  /// Every byte until the peer closes.
  func readToEnd(timeout: Duration = .seconds(10)) throws -> [UInt8] {
    var all: [UInt8] = []
    while true {
      let chunk = try read(timeout: timeout)
      if chunk.isEmpty { return all }
      all += chunk
    }
  }
}
