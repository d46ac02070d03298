import Foundation
import StatecastClient
import StatecastJSON

#if canImport(Glibc)
  import Glibc
#endif

/// `statecast-bench connections`: what idle WebSocket connections cost a server.
///
/// A `statecast-demo` child process serves; this process holds N idle `/ws` connections
/// on raw sockets (answering every ping with a pong, as a browser does) and measures the
/// child's CPU over 5 s from `/proc/<pid>/stat`, and the time a fresh client takes to
/// connect, join `counter` and have one action replied (median of 20). It does so at
/// 1,000, 10,000 and as many connections as the open-files limit allows, with the
/// default ping interval (20 s) and with a 2 s one. `STATECAST_EVENT_LOOP=poll` in the
/// environment makes the server use libwebsockets' `poll()` loop, for comparison.
func runConnectionBenchmarks() async throws {
  let hardLimit = raiseDescriptorLimitToHard()
  let most = hardLimit - 300
  var rows: [BenchRow] = []
  for ping in isQuickRun ? [20] : [20, 2] {
    let server = try ConnectionBenchServer.start(pingSeconds: ping)
    let herd = try IdleHerd(port: server.port)
    let counts = isQuickRun ? [benchSize(1_000, minimum: 20)] : [1_000, 10_000, most]
    for count in counts where count <= most && herd.count < count {
      // A refusal before `count` (a server-side limit) measures what is open.
      _ = herd.growUntilRefused(atMost: count)
      // Past one session save (every 2 s), which writes the sessions that just opened:
      // what is measured is the cost of connections that stay idle.
      try await Task.sleep(for: .seconds(benchSeconds(3)))
      let cpu = server.cpuShare(over: benchSeconds(5))
      // A fresh client the server refuses (at its limit) is a row too, not the end.
      let latency = try? await freshClientLatency(port: server.port, samples: benchSize(20, minimum: 3))
      rows.append(
        BenchRow(
          name: "\(herd.count) idle, ping every \(ping) s",
          columns: [
            ("server CPU", String(format: "%.1f%%", cpu * 100)),
            (
              "fresh connect+join+act p50",
              latency.map { formatDuration(nanoseconds: median($0)) } ?? "refused"
            ),
            ("max", latency.map { formatDuration(nanoseconds: $0.max() ?? 0) } ?? "-"),
          ]))
    }
    if ping == 20 && !isQuickRun {
      // At the limit: keep connecting until the server refuses, then measure again.
      let refusedAt = herd.growUntilRefused(atMost: hardLimit - 50)
      try await Task.sleep(for: .seconds(3))
      let cpu = server.cpuShare(over: 5)
      rows.append(
        BenchRow(
          name: "at the fd limit (\(refusedAt) open, new ones refused)",
          columns: [
            ("server CPU", String(format: "%.1f%%", cpu * 100)), ("fresh connect+join+act p50", "-"),
            ("max", "-"),
          ]))
    }
    herd.close()
    server.stop()
  }
  let loop =
    ProcessInfo.processInfo.environment["STATECAST_EVENT_LOOP"] == "poll" ? "poll()" : "epoll (libev)"
  printTable("connections: idle connections and the server's CPU (\(loop), loopback)", rows)
}

/// Raises this process's soft open-files limit to its hard limit; returns it.
private func raiseDescriptorLimitToHard() -> Int {
  var limit = rlimit()
  getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
  limit.rlim_cur = limit.rlim_max
  setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
  return Int(limit.rlim_cur)
}

/// Connects a fresh Statecast client `samples` times: upgrade, hello, join `counter`, one
/// action and its reply. Returns the durations in nanoseconds.
private func freshClientLatency(port: Int, samples: Int) async throws -> [Double] {
  let client = try WebSocketClient()
  var durations: [Double] = []
  for _ in 0..<samples {
    let started = nowNanoseconds()
    let socket = try await client.connect(to: "ws://127.0.0.1:\(port)/ws", subprotocols: ["statecast.v1"])
    var events = socket.events.makeAsyncIterator()
    func nextReply() async throws {
      while true {
        guard case .text(let bytes)? = await events.next() else {
          throw BenchmarkFailure("the socket closed")
        }
        if bytes.starts(with: Array(#"{"op":"reply""#.utf8)) { return }
      }
    }
    socket.send(text: #"{"op":"join","ref":1,"topic":"counter"}"#)
    try await nextReply()
    socket.send(text: #"{"op":"action","ref":2,"topic":"counter","action":{"increment":{}}}"#)
    try await nextReply()
    durations.append(Double(nowNanoseconds() - started))
    socket.close()
  }
  await client.shutdown()
  return durations
}

/// `statecast-demo` in its own process, so that its CPU time is its own.
private struct ConnectionBenchServer {
  let process: Process
  let port: Int

  static func start(pingSeconds: Int) throws -> ConnectionBenchServer {
    let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
      .appendingPathComponent("statecast-demo")
    guard FileManager.default.isExecutableFile(atPath: binary.path) else {
      throw BenchmarkFailure("\(binary.path) is missing: build the statecast-demo product too")
    }
    let process = Process()
    process.executableURL = binary
    process.arguments = [
      "--port", "0", "--public", "Public", "--data", NSTemporaryDirectory() + "statecast-bench-connections",
      "--ping-interval", "\(pingSeconds)", "--max-connections", "1000000",
      "--max-connections-per-address", "1000000",
    ]
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    var line = ""
    while !line.contains("\n") {
      let chunk = output.fileHandleForReading.availableData
      guard !chunk.isEmpty else { throw BenchmarkFailure("statecast-demo exited before listening") }
      line += String(decoding: chunk, as: UTF8.self)
    }
    guard let origin = line.split(separator: "\n").first?.split(separator: " ").last,
      let port = origin.split(separator: ":").last.flatMap({ Int($0) })
    else { throw BenchmarkFailure("unexpected first line from statecast-demo: \(line)") }
    return ConnectionBenchServer(process: process, port: port)
  }

  /// The share of one core the server used over the next `seconds` seconds.
  func cpuShare(over seconds: Double) -> Double {
    let ticksPerSecond = Double(sysconf(Int32(_SC_CLK_TCK)))
    let before = cpuTicks()
    let started = nowNanoseconds()
    usleep(UInt32(seconds * 1e6))
    let elapsed = Double(nowNanoseconds() - started) / 1e9
    return Double(cpuTicks() - before) / ticksPerSecond / elapsed
  }

  /// utime + stime of the server process, in clock ticks.
  private func cpuTicks() -> Int {
    let stat = (try? String(contentsOfFile: "/proc/\(process.processIdentifier)/stat", encoding: .utf8)) ?? ""
    // Fields after the command name (which is in parentheses): state is field 3.
    guard let close = stat.lastIndex(of: ")") else { return 0 }
    let fields = stat[stat.index(after: close)...].split(separator: " ")
    guard fields.count > 13, let user = Int(fields[11]), let system = Int(fields[12]) else { return 0 }
    return user + system
  }

  func stop() {
    process.terminate()
    process.waitUntilExit()
  }
}

/// Idle WebSocket connections on raw sockets, kept alive by a thread that answers each
/// ping with a pong and discards everything else.
private final class IdleHerd: @unchecked Sendable {
  // Sendable: `sockets` is touched by the benchmark's task only; `pending` by the pump
  // thread only; `epoll` and `running` are set before the thread starts or atomically enough
  // for a benchmark (a flag read once per wake-up).
  private let port: Int
  private let epoll: Int32
  private var sockets: [Int32] = []
  private var pending: [Int32: [UInt8]] = [:]
  private var running = true

  var count: Int { sockets.count }

  init(port: Int) throws {
    self.port = port
    epoll = Epoll.create(0)
    let thread = Thread { [self] in pump() }
    thread.start()
  }

  /// Opens connections until `count` are open.
  func grow(to count: Int) throws {
    while sockets.count < count {
      guard let socket = connectOne() else {
        throw BenchmarkFailure("connection \(sockets.count + 1) was refused")
      }
      sockets.append(socket)
    }
  }

  /// Opens connections until one is refused or `limit` are open; returns how many are.
  func growUntilRefused(atMost limit: Int) -> Int {
    while sockets.count < limit, let socket = connectOne() { sockets.append(socket) }
    return sockets.count
  }

  /// Connects from one of 127.0.0.2-127.0.0.9 (so that 20,000 connections do not run
  /// out of ports), upgrades, and hands the socket to the pump. `nil` when refused.
  private func connectOne() -> Int32? {
    let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard socket >= 0 else { return nil }
    var source = sockaddr_in()
    source.sin_family = sa_family_t(AF_INET)
    source.sin_addr.s_addr = inet_addr("127.0.0.\(2 + sockets.count % 8)")
    var target = sockaddr_in()
    target.sin_family = sa_family_t(AF_INET)
    target.sin_port = in_port_t(UInt16(port).bigEndian)
    target.sin_addr.s_addr = inet_addr("127.0.0.1")
    let connected = withUnsafePointer(to: &source) { sourcePointer in
      withUnsafePointer(to: &target) { targetPointer in
        sourcePointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
          bind(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
        } == 0
          && targetPointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            Glibc.connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
          } == 0
      }
    }
    var timeout = timeval(tv_sec: 5, tv_usec: 0)
    setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    let request =
      "GET /ws HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
      + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
      + "Sec-WebSocket-Protocol: statecast.v1\r\n\r\n"
    guard connected, request.withCString({ send(socket, $0, strlen($0), 0) }) > 0 else {
      Glibc.close(socket)
      return nil
    }
    // Read the response head; whatever follows it (the hello) is left for the pump.
    var head: [UInt8] = []
    var byte: UInt8 = 0
    while !head.suffix(4).elementsEqual([13, 10, 13, 10]) {
      guard recv(socket, &byte, 1, 0) == 1 else {
        Glibc.close(socket)
        return nil
      }
      head.append(byte)
    }
    guard head.starts(with: Array("HTTP/1.1 101".utf8)) else {
      Glibc.close(socket)
      return nil
    }
    _ = fcntl(socket, F_SETFL, fcntl(socket, F_GETFL) | O_NONBLOCK)
    Epoll.add(epoll, socket)
    return socket
  }

  /// The pump thread: reads every readable socket and answers pings.
  private func pump() {
    var events = [UInt8](repeating: 0, count: 256 * Epoll.eventSize)
    var buffer = [UInt8](repeating: 0, count: 65_536)
    while running {
      let ready = Epoll.wait(epoll, &events, 256, 200)
      guard ready > 0 else { continue }
      for index in 0..<Int(ready) {
        let socket = events.withUnsafeBytes {
          $0.load(fromByteOffset: index * Epoll.eventSize + 4, as: Int32.self)
        }
        let read = recv(socket, &buffer, buffer.count, 0)
        if read <= 0 {
          if read == 0 { Epoll.remove(epoll, socket) }
          continue
        }
        var bytes = pending.removeValue(forKey: socket) ?? []
        bytes.append(contentsOf: buffer[0..<read])
        answerPings(socket, &bytes)
        if !bytes.isEmpty { pending[socket] = bytes }
      }
    }
  }

  /// Consumes the whole frames at the front of `bytes`, answering each ping.
  private func answerPings(_ socket: Int32, _ bytes: inout [UInt8]) {
    var offset = 0
    while bytes.count - offset >= 2 {
      let opcode = bytes[offset] & 0x0f
      var length = Int(bytes[offset + 1] & 0x7f)
      var header = 2
      if length == 126 {
        guard bytes.count - offset >= 4 else { break }
        length = Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
        header = 4
      } else if length == 127 {
        guard bytes.count - offset >= 10 else { break }
        length = (0..<8).reduce(0) { $0 << 8 | Int(bytes[offset + 2 + $1]) }
        header = 10
      }
      guard bytes.count - offset >= header + length else { break }
      if opcode == 0x9 && length <= 125 {
        var pong: [UInt8] = [0x8a, 0x80 | UInt8(length), 0, 0, 0, 0]
        pong.append(contentsOf: bytes[(offset + header)..<(offset + header + length)])
        _ = send(socket, pong, pong.count, Int32(MSG_NOSIGNAL))
      }
      offset += header + length
    }
    bytes.removeFirst(offset)
  }

  func close() {
    running = false
    for socket in sockets { Glibc.close(socket) }
    sockets = []
  }
}

/// epoll, which the Glibc module does not export, looked up with `dlsym`. An
/// `epoll_event` is 12 packed bytes on x86_64: `events`, then the data (here the fd).
private enum Epoll {
  static let eventSize = 12
  private typealias Create = @convention(c) (Int32) -> Int32
  private typealias Control = @convention(c) (Int32, Int32, Int32, UnsafeMutableRawPointer?) -> Int32
  private typealias Wait = @convention(c) (Int32, UnsafeMutableRawPointer?, Int32, Int32) -> Int32
  private static let createFunction = unsafeBitCast(
    dlsym(dlopen(nil, RTLD_NOW), "epoll_create1"), to: Create.self)
  private static let controlFunction = unsafeBitCast(
    dlsym(dlopen(nil, RTLD_NOW), "epoll_ctl"), to: Control.self)
  private static let waitFunction = unsafeBitCast(dlsym(dlopen(nil, RTLD_NOW), "epoll_wait"), to: Wait.self)

  static func create(_ flags: Int32) -> Int32 { createFunction(flags) }

  /// Watches `socket` for input (`EPOLLIN`, `EPOLL_CTL_ADD`).
  static func add(_ epoll: Int32, _ socket: Int32) {
    var event = [UInt8](repeating: 0, count: eventSize)
    event.withUnsafeMutableBytes {
      $0.storeBytes(of: UInt32(1), toByteOffset: 0, as: UInt32.self)
      $0.storeBytes(of: socket, toByteOffset: 4, as: Int32.self)
      _ = controlFunction(epoll, 1, socket, $0.baseAddress)
    }
  }

  /// Stops watching `socket` (`EPOLL_CTL_DEL`).
  static func remove(_ epoll: Int32, _ socket: Int32) {
    _ = controlFunction(epoll, 2, socket, nil)
  }

  static func wait(_ epoll: Int32, _ events: inout [UInt8], _ capacity: Int32, _ timeout: Int32) -> Int32 {
    events.withUnsafeMutableBytes { waitFunction(epoll, $0.baseAddress, capacity, timeout) }
  }
}
