import Foundation
import StatecastClient
import StatecastExamples
import StatecastJSON
import StatecastServer

/// Section "server": the whole path a browser's action takes, over real loopback
/// sockets, next to the transport's own floor measured in the same run, and what an
/// idle session costs the server in memory.
func runServerBenchmarks() async throws {
  try await runRoundTrips()
  try await runIdleSessions(counts: [1_000, 10_000])
}

/// Action → patch → reply with one client, against `/echo` on the same server.
private func runRoundTrips() async throws {
  var configuration = ServerConfiguration()
  configuration.port = 0
  configuration.publicDirectory = nil
  configuration.echo = true
  configuration.actionsPerSecond = 10_000_000
  configuration.actionBurst = 10_000_000
  let data = FileManager.default.temporaryDirectory.appendingPathComponent("statecast-bench-\(UUID().uuidString)")
  let server = StatecastServer(configuration: configuration, routes: demoCounterRoute(data))
  let port = try server.start()

  let floor = try await measureEchoFloor(url: "ws://127.0.0.1:\(port)/echo", iterations: 20_000, warmup: 2_000)

  // A raw socket, like the floor's, so that both rows measure the server, not a client.
  let client = try WebSocketClient()
  let socket = try await client.connect(to: "ws://127.0.0.1:\(port)/ws", subprotocols: ["statecast.v1"])
  var events = socket.events.makeAsyncIterator()
  func nextMessage() async throws -> JSON {
    guard case .text(let bytes)? = await events.next() else { throw BenchmarkFailure("the socket closed") }
    return try JSON(parsing: bytes)
  }
  _ = try await nextMessage()  // hello
  socket.send(text: #"{"op":"join","ref":0,"topic":"counter"}"#)
  while try await nextMessage()["op"] != "reply" {}
  let iterations = 20_000
  let warmup = 2_000
  var samples: [Double] = []
  samples.reserveCapacity(iterations)
  var patches = 0
  for ref in 1...(iterations + warmup) {
    let started = nowNanoseconds()
    socket.send(text: #"{"op":"action","ref":\#(ref),"topic":"counter","action":{"increment":{}}}"#)
    while true {
      guard case .text(let bytes)? = await events.next() else { throw BenchmarkFailure("the socket closed") }
      // The reply is the last frame an action causes: stop the clock there.
      if bytes.starts(with: Array(#"{"op":"reply""#.utf8)) { break }
      patches += 1
    }
    if ref > warmup { samples.append(Double(nowNanoseconds() - started)) }
  }
  guard patches >= iterations + warmup else {
    throw BenchmarkFailure("\(patches) patches for \(iterations + warmup) actions")
  }
  socket.close()
  await client.shutdown()
  await server.shutdown()
  try? FileManager.default.removeItem(at: data)

  let p50 = percentile(samples, 0.5)
  printTable(
    "server: round trips over loopback (one client, one in flight)",
    [
      BenchRow(
        name: "/echo (transport floor)",
        columns: [
          ("p50", formatDuration(nanoseconds: floor.p50)), ("p99", formatDuration(nanoseconds: floor.p99)),
          ("× floor", "1.00"),
        ]),
      BenchRow(
        name: "action → patch → reply (counter)",
        columns: [
          ("p50", formatDuration(nanoseconds: p50)), ("p99", formatDuration(nanoseconds: percentile(samples, 0.99))),
          ("× floor", String(format: "%.2f", p50 / floor.p50)),
        ]),
    ])
}

/// Opens `count` sessions, each joined to `counter`, against a demo server in its own
/// process, and reads that process's resident memory before and after.
private func runIdleSessions(counts: [Int]) async throws {
  var rows: [BenchRow] = []
  for count in counts {
    let server = try DemoServerProcess.start()
    let before = server.residentBytes()
    let client = try WebSocketClient()
    var connections: [StatecastConnection] = []
    connections.reserveCapacity(count)
    let started = nowNanoseconds()
    let batch = 100
    for first in stride(from: 0, to: count, by: batch) {
      let opened = try await withThrowingTaskGroup(of: StatecastConnection.self) { group in
        for _ in first..<min(count, first + batch) {
          group.addTask {
            let connection = try await StatecastConnection.connect(to: server.url, client: client)
            _ = try await connection.join("counter")
            return connection
          }
        }
        return try await group.reduce(into: [StatecastConnection]()) { $0.append($1) }
      }
      connections.append(contentsOf: opened)
    }
    let openSeconds = Double(nowNanoseconds() - started) / 1e9
    let after = server.residentBytes()
    let perSession = Double(after - before) / Double(count)
    rows.append(
      BenchRow(
        name: "\(count) sessions joined to counter",
        columns: [
          ("server RSS before", String(format: "%.1f MB", Double(before) / 1e6)),
          ("after", String(format: "%.1f MB", Double(after) / 1e6)),
          ("per session", String(format: "%.1f KB", perSession / 1e3)),
          ("opened in", String(format: "%.1f s", openSeconds)),
        ]))
    for connection in connections { connection.close() }
    await client.shutdown()
    server.stop()
  }
  printTable("server: memory per idle session (server process RSS)", rows)
}

private func demoCounterRoute(_ data: URL) -> [Route] {
  let dependencies = Counter.Dependencies.live(dataDirectory: data)
  return [
    .perSession(
      "counter", clientAction: Counter.ClientAction.self, embed: Counter.Action.client,
      view: Counter.viewState, store: { _ in Counter.makeStore(dependencies: dependencies) })
  ]
}

/// `statecast-demo` from the same build folder as this benchmark, on a free port.
private struct DemoServerProcess {
  let process: Process
  let url: String

  static func start() throws -> DemoServerProcess {
    let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
      .appendingPathComponent("statecast-demo")
    guard FileManager.default.isExecutableFile(atPath: binary.path) else {
      throw BenchmarkFailure("\(binary.path) is missing: build the statecast-demo product too")
    }
    let process = Process()
    process.executableURL = binary
    process.arguments = ["--port", "0", "--public", "Public", "--data", NSTemporaryDirectory() + "statecast-bench-sessions"]
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    var line = ""
    let handle = output.fileHandleForReading
    while !line.contains("\n") {
      let chunk = handle.availableData
      guard !chunk.isEmpty else { throw BenchmarkFailure("statecast-demo exited before listening") }
      line += String(decoding: chunk, as: UTF8.self)
    }
    guard let origin = line.split(separator: "\n").first?.split(separator: " ").last,
      let port = origin.split(separator: ":").last
    else { throw BenchmarkFailure("unexpected first line from statecast-demo: \(line)") }
    return DemoServerProcess(process: process, url: "ws://127.0.0.1:\(port)/ws")
  }

  /// VmRSS of the server process, in bytes.
  func residentBytes() -> Int {
    let status = (try? String(contentsOfFile: "/proc/\(process.processIdentifier)/status", encoding: .utf8)) ?? ""
    let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") } ?? ""
    let kilobytes = line.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
    return kilobytes * 1024
  }

  func stop() {
    process.terminate()
    process.waitUntilExit()
  }
}

struct BenchmarkFailure: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}
