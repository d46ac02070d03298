import Foundation
import Statecast
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

/// Action → patch → reply with one client, against `/echo` on the same server: on the
/// counter, on an action the counter answers with no change, on the smallest feature (a
/// one-field view: the framework's own path), and on a 10,000-row table where each
/// action changes one field of one row. The five kinds alternate in blocks
/// (see ``RoundTripSeries``); each row gives the wall clock's median and the server's
/// service-thread CPU per trip, both against the floor's.
private func runRoundTrips() async throws {
  var configuration = ServerConfiguration()
  configuration.port = 0
  configuration.publicDirectory = nil
  configuration.echo = true
  configuration.actionsPerSecond = 10_000_000
  configuration.actionBurst = 10_000_000
  let data = FileManager.default.temporaryDirectory.appendingPathComponent(
    "statecast-bench-\(UUID().uuidString)")
  let server = StatecastServer(
    configuration: configuration, routes: demoCounterRoute(data) + [tableRoute(), tallyRoute()])
  let port = try server.start()
  let url = "ws://127.0.0.1:\(port)/ws"

  let rounds = benchSize(20, minimum: 2)
  let block = benchSize(1_000, minimum: 50)
  let tableBlock = block / 4
  let warmup = benchSize(2_000, minimum: 100)
  let trips = warmup + rounds * block
  let floor = try await RoundTripSeries.echo(
    name: "/echo (transport floor)", url: "ws://127.0.0.1:\(port)/echo")
  let counter = try await RoundTripSeries.actions(
    name: "action → patch → reply (counter)", url: url, topic: "counter", trips: trips
  ) { _ in #"{"increment":{}}"# }
  // The same trip without the view's part: an action the reducer answers with no change
  // (no patch is sent).
  let unchanged = try await RoundTripSeries.actions(
    name: "action → reply, no change (counter)", url: url, topic: "counter", trips: trips,
    answerIsPatched: false
  ) { _ in #"{"cancelNthPrime":{}}"# }
  let tally = try await RoundTripSeries.actions(
    name: "action → patch → reply (one-field view)", url: url, topic: "tally", trips: trips
  ) { _ in #"{"add":{}}"# }
  let table = try await RoundTripSeries.actions(
    name: "action → patch → reply (10,000-row table, 1 field)", url: url, topic: "table",
    trips: warmup / 4 + rounds * tableBlock
  ) { ref in #"{"rename":{"index":\#(ref % BenchTable.rowCount),"title":"renamed \#(ref)"}}"# }
  let serverCPU = { server.serviceThreadCPUTime }
  // Each kind: its block, and its warm-up (run once, before the timed rounds).
  let blocks = [
    (floor, block, warmup), (counter, block, warmup), (unchanged, block, warmup),
    (tally, block, warmup), (table, tableBlock, warmup / 4),
  ]
  for (series, _, warmup) in blocks { try await series.run(warmup, timed: false, serverCPU: serverCPU) }
  for _ in 0..<rounds {
    for (series, size, _) in blocks { try await series.run(size, timed: true, serverCPU: serverCPU) }
  }
  for (series, _, _) in blocks { try await series.finish() }
  await server.shutdown()
  try? FileManager.default.removeItem(at: data)

  let floorP50 = percentile(floor.samples, 0.5)
  func row(_ series: RoundTripSeries) -> BenchRow {
    let p50 = percentile(series.samples, 0.5)
    var cpu = ("–", "–")
    if let perTrip = series.serverCPUPerTrip, let floorCPU = floor.serverCPUPerTrip {
      cpu = (formatDuration(nanoseconds: perTrip), String(format: "%.2f", perTrip / floorCPU))
    }
    return BenchRow(
      name: series.name,
      columns: [
        ("p50", formatDuration(nanoseconds: p50)),
        ("p99", formatDuration(nanoseconds: percentile(series.samples, 0.99))),
        ("× floor", String(format: "%.2f", p50 / floorP50)),
        ("server CPU", cpu.0), ("CPU × floor", cpu.1),
      ])
  }
  printTable(
    "server: round trips over loopback (one client, one in flight, the kinds alternating in \(rounds) rounds;"
      + " server CPU: the service thread's per trip)",
    blocks.map { row($0.0) })
}

/// A topic whose view is a table of 10,000 rows of six fields; `rename` changes one.
private enum BenchTable: Feature {
  static let rowCount = 10_000

  struct Row: Codable, Equatable, Sendable, Identifiable {
    var id: Int
    var title: String
    var owner: String
    var done: Bool
    var priority: Int
    var estimate: Double
  }

  struct State: Codable, Equatable, Sendable {
    var rows: [Row]
  }

  enum ClientAction: Codable, Sendable {
    case rename(index: Int, title: String)
  }

  static func embed(_ action: ClientAction) -> ClientAction { action }
  static func viewState(_ state: State) -> State { state }

  static func makeStore(dependencies: Void, join: Join) -> Store<State, ClientAction> {
    let rows = (0..<rowCount).map {
      Row(
        id: $0, title: "row \($0)", owner: "owner \($0 % 17)", done: $0 % 3 == 0, priority: $0 % 5,
        estimate: Double($0) / 4)
    }
    return Store(
      initialState: State(rows: rows),
      reducer: Reducer { state, action in
        switch action {
        case .rename(let index, let title):
          if state.rows.indices.contains(index) { state.rows[index].title = title }
          return .none
        }
      })
  }
}

private func tableRoute() -> Route {
  .perSession("table", BenchTable.self, dependencies: ())
}

/// The smallest feature: one number, one action, its view the state itself. Its trip is
/// the framework's own path (parse, decode, reduce, encode, diff, two frames) with as
/// little of a feature's work as a feature can have.
private enum BenchTally: Feature {
  struct State: Codable, Equatable, Sendable {
    var count = 0
  }

  enum ClientAction: Codable, Sendable {
    case add
  }

  static func embed(_ action: ClientAction) -> ClientAction { action }
  static func viewState(_ state: State) -> State { state }

  static func makeStore(dependencies: Void, join: Join) -> Store<State, ClientAction> {
    Store(
      initialState: State(),
      reducer: Reducer { state, action in
        switch action {
        case .add: state.count += 1
        }
        return .none
      })
  }
}

private func tallyRoute() -> Route {
  .perSession("tally", BenchTally.self, dependencies: ())
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
    .perSession("counter", Counter.self, dependencies: dependencies)
  ]
}

/// `statecast-demo` from the same build folder as this benchmark, on a free port (also
/// used by the uploads section).
struct DemoServerProcess {
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
    process.arguments = [
      "--port", "0", "--public", "Public", "--data", NSTemporaryDirectory() + "statecast-bench-sessions",
      // Every session of this bench comes from one address.
      "--max-connections", "1000000", "--max-connections-per-address", "1000000",
    ]
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
    let status =
      (try? String(contentsOfFile: "/proc/\(process.processIdentifier)/status", encoding: .utf8)) ?? ""
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
