import Foundation
import Logging
import Statecast
import StatecastClient
import StatecastExamples
import StatecastPostgres
import StatecastServer

/// Section "cluster": three servers sharing rooms through one PostgreSQL server (a
/// throwaway one from scripts/postgres-throwaway.sh, or the database in
/// `STATECAST_BENCH_POSTGRES`), each with a PostgreSQL node of its own, as three
/// processes would be; in one process here so that one clock times them all.
///
/// - the round trip of an action (its patch and its reply) from a socket on the room's
///   owner and from a socket on a follower, which forwards it to the owner and relays
///   the owner's frames back: what forwarding costs;
/// - one action in a room of 300 members spread over the three servers: until the last
///   member has read the patch.
///
/// Both on an in-memory shared room and on the demo's durable counter room (its `ok`
/// waits for PostgreSQL's commit).
func runClusterBenchmarks() async throws {
  let database = try ThrowawayDatabase.start()
  defer { database.stop() }
  let data = FileManager.default.temporaryDirectory.appendingPathComponent(
    "statecast-bench-cluster-\(UUID())")
  defer { try? FileManager.default.removeItem(at: data) }

  var configuration = ServerConfiguration()
  configuration.port = 0
  configuration.publicDirectory = nil
  configuration.metrics = .off
  configuration.actionBurst = 10_000_000
  configuration.actionsPerSecond = 10_000_000
  configuration.maxPendingInboundBytes = 64 << 20
  configuration.logger.logLevel = .error
  var servers: [StatecastServer] = []
  var runs: [Task<Void, any Error>] = []
  var urls: [String] = []
  for _ in 0..<3 {
    var logger = Logger(label: "statecast.postgres")
    logger.logLevel = .error
    let postgres = try PostgresCluster(url: database.url, logger: logger)
    runs.append(Task { try await postgres.run() })
    try await postgres.waitUntilReady()
    let server = StatecastServer(
      configuration: configuration,
      routes: [
        .shared("tally/:room", Tally.self, dependencies: ()),
        .shared(
          "counter/:room", Counter.self, dependencies: .live(dataDirectory: data, thinkingTime: .zero),
          durability: .durable),
      ],
      persistence: .cluster(postgres))
    urls.append("ws://127.0.0.1:\(try server.start())/ws")
    servers.append(server)
  }
  let client = try WebSocketClient()

  var rows: [BenchRow] = []
  for (topic, name) in [("tally/round-trip", "in memory"), ("counter/round-trip", "durable")] {
    // The socket on server 0 joins first: server 0 owns the room.
    let onOwner = try await Room.open(urls: [urls[0]], topic: topic, members: 1, client: client)
    let onFollower = try await Room.open(urls: [urls[1]], topic: topic, members: 1, client: client)
    var owner: [Double] = []
    var follower: [Double] = []
    for ref in 1...420 {
      let (ownerTrip, _) = try await onOwner.act(ref: ref)
      let (followerTrip, _) = try await onFollower.act(ref: ref)
      if ref > 20 {
        owner.append(ownerTrip)
        follower.append(followerTrip)
      }
    }
    let added = percentile(follower, 0.5) - percentile(owner, 0.5)
    rows.append(
      BenchRow(
        name: "round trip on the owner, \(name)",
        columns: [
          ("p50", formatDuration(nanoseconds: percentile(owner, 0.5))),
          ("p99", formatDuration(nanoseconds: percentile(owner, 0.99))), ("forwarding adds p50", "-"),
        ]))
    rows.append(
      BenchRow(
        name: "round trip on a follower, \(name)",
        columns: [
          ("p50", formatDuration(nanoseconds: percentile(follower, 0.5))),
          ("p99", formatDuration(nanoseconds: percentile(follower, 0.99))),
          ("forwarding adds p50", formatDuration(nanoseconds: added)),
        ]))
    onOwner.close()
    onFollower.close()
  }
  for (topic, name) in [("tally/fan-out", "in memory"), ("counter/fan-out", "durable")] {
    let members = benchSize(300, minimum: 12)
    let room = try await Room.open(urls: urls, topic: topic, members: members, client: client)
    var delivered: [Double] = []
    for ref in 1...70 {
      let (_, toLast) = try await room.act(ref: ref)
      if ref > 10 { delivered.append(toLast) }
    }
    rows.append(
      BenchRow(
        name: "\(members) members on 3 servers, last has the patch, \(name)",
        columns: [
          ("p50", formatDuration(nanoseconds: percentile(delivered, 0.5))),
          ("p99", formatDuration(nanoseconds: percentile(delivered, 0.99))), ("forwarding adds p50", "-"),
        ]))
    room.close()
  }
  await client.shutdown()
  for server in servers { await server.shutdown() }
  for run in runs { run.cancel() }
  printTable("cluster: three servers sharing rooms through PostgreSQL (loopback, release)", rows)
}

/// A PostgreSQL server for the section: `STATECAST_BENCH_POSTGRES` if set, else a
/// throwaway one, stopped and deleted afterwards.
private struct ThrowawayDatabase {
  let url: String
  let directory: String?

  static func start() throws -> ThrowawayDatabase {
    if let url = ProcessInfo.processInfo.environment["STATECAST_BENCH_POSTGRES"] {
      return ThrowawayDatabase(url: url, directory: nil)
    }
    let words = try run(["start"]).split(separator: " ").map(String.init)
    guard words.count == 2 else { throw BenchmarkFailure("postgres-throwaway.sh start printed \(words)") }
    return ThrowawayDatabase(url: words[0], directory: words[1])
  }

  func stop() {
    if let directory { _ = try? Self.run(["stop", directory]) }
  }

  /// Through `popen`: Foundation's `Process.waitUntilExit` can hang when called from a
  /// task.
  private static func run(_ arguments: [String]) throws -> String {
    let command = (["scripts/postgres-throwaway.sh"] + arguments).map { "'\($0)'" }.joined(separator: " ")
    guard let pipe = popen(command, "r") else { throw BenchmarkFailure("cannot run \(command)") }
    var data: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4_096)
    while true {
      let count = fread(&buffer, 1, buffer.count, pipe)
      if count <= 0 { break }
      data += buffer[0..<count]
    }
    guard pclose(pipe) == 0 else {
      throw BenchmarkFailure("scripts/postgres-throwaway.sh \(arguments.joined(separator: " ")) failed")
    }
    return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
  }
}
