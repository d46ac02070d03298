import Foundation
import StatecastClient
import StatecastServer

/// The latency of one WebSocket round trip through the raw transport, with no protocol:
/// the floor the protocol's action → patch round trip is compared with.
struct EchoFloor {
  /// Median round trip, in nanoseconds.
  var p50: Double
  /// 99th percentile round trip, in nanoseconds.
  var p99: Double
  /// Sequential round trips per second (one message in flight).
  var roundTripsPerSecond: Double
}

/// Measures `/echo` round trips over loopback with the Swift client: send one text
/// message, wait for it to come back, repeat. The server must have `echo` enabled.
///
/// Reuse it to print the floor next to another measurement in the same run:
///
///     let floor = try await measureEchoFloor(url: "ws://127.0.0.1:\(port)/echo")
///
/// - Parameters:
///   - url: the `/echo` endpoint.
///   - payloadSize: bytes per message.
///   - iterations: measured round trips (after `warmup` unmeasured ones).
func measureEchoFloor(
  url: String, payloadSize: Int = 64, iterations: Int = 20_000, warmup: Int = 2_000
) async throws -> EchoFloor {
  let series = try await RoundTripSeries.echo(name: "/echo", url: url, payloadSize: payloadSize)
  let started = nowNanoseconds()
  try await series.run(warmup, timed: false, serverCPU: { nil })
  try await series.run(iterations, timed: true, serverCPU: { nil })
  let total = Double(nowNanoseconds() - started)
  try await series.finish()
  return EchoFloor(
    p50: percentile(series.samples, 0.5), p99: percentile(series.samples, 0.99),
    roundTripsPerSecond: Double(warmup + iterations) / (total / 1e9))
}

/// `statecast-bench transport`: echo round trips (the floor) and a broadcast of shared
/// frames to 1,000 connections.
func runTransportBenchmarks() async throws {
  let recorder = BenchConnectionRecorder()
  var configuration = TransportConfiguration(port: 0)
  configuration.echo = true
  configuration.outboundHardLimit = 64 * 1_048_576
  // Every client of the broadcast connects from 127.0.0.1.
  configuration.maxConnectionsPerAddress = 4_096
  let transport = WebSocketTransport(configuration: configuration, handler: recorder)
  let port = try transport.start()
  var rows: [BenchRow] = []

  for size in [64, 4_096] {
    let floor = try await measureEchoFloor(url: "ws://127.0.0.1:\(port)/echo", payloadSize: size)
    rows.append(
      BenchRow(
        name: "/echo round trip, \(size) B",
        columns: [
          ("p50", formatDuration(nanoseconds: floor.p50)), ("p99", formatDuration(nanoseconds: floor.p99)),
          ("per second", formatRate(floor.roundTripsPerSecond)),
        ]))
  }

  rows.append(contentsOf: try await measureBroadcast(transport: transport, recorder: recorder, port: port))
  await transport.shutdown()
  printTable("transport (loopback, Swift client, release)", rows)
}

/// Opens `clients` connections to `/ws`, then sends `frames` shared frames to all of
/// them and times until every client has every frame.
private func measureBroadcast(
  transport: WebSocketTransport, recorder: BenchConnectionRecorder, port: Int, clients: Int = 1_000,
  frames: Int = 100
) async throws -> [BenchRow] {
  let client = try WebSocketClient()
  var connections: [WebSocketConnection] = []
  for _ in 0..<clients {
    connections.append(try await client.connect(to: "ws://127.0.0.1:\(port)/ws"))
  }
  let ids = await recorder.waitForConnections(clients)
  let payload = [UInt8](
    #"{"op":"patch","topic":"room","rev":1,"ops":[{"op":"replace","path":"/count","value":1}]}"#.utf8)

  var queueTimes: [Double] = []
  let started = nowNanoseconds()
  try await withThrowingTaskGroup(of: Int.self) { group in
    for connection in connections {
      group.addTask {
        var received = 0
        for await event in connection.events {
          guard case .text = event else { break }
          received += 1
          if received == frames { break }
        }
        return received
      }
    }
    for _ in 0..<frames {
      let frame = OutboundFrame(text: payload)
      let before = nowNanoseconds()
      transport.send(frame, to: ids)
      queueTimes.append(Double(nowNanoseconds() - before))
    }
    var delivered = 0
    for try await count in group { delivered += count }
    guard delivered == clients * frames else { throw EchoBenchmarkFailure.connectionEnded }
  }
  let elapsed = Double(nowNanoseconds() - started)
  await client.shutdown()
  return [
    BenchRow(
      name: "broadcast to \(formatRate(Double(clients))) connections",
      columns: [
        ("p50", "queue \(formatDuration(nanoseconds: median(queueTimes)))"),
        ("p99", "queue \(formatDuration(nanoseconds: percentile(queueTimes, 0.99)))"),
        ("per second", "\(formatRate(Double(clients * frames) / (elapsed / 1e9))) msgs"),
      ])
  ]
}

private enum EchoBenchmarkFailure: Error {
  case connectionEnded
}

/// Collects the ids of `/ws` connections for the broadcast benchmark.
private final class BenchConnectionRecorder: TransportHandler, @unchecked Sendable {
  // Sendable: `ids` and `waiter` are guarded by `lock`.
  private let lock = NSLock()
  private var ids: [ConnectionID] = []
  private var waiter: (count: Int, continuation: CheckedContinuation<[ConnectionID], Never>)?

  func transportOpened(_ id: ConnectionID) {
    lock.lock()
    ids.append(id)
    let ready = waiter.flatMap { ids.count >= $0.count ? $0.continuation : nil }
    if ready != nil { waiter = nil }
    let snapshot = ids
    lock.unlock()
    ready?.resume(returning: snapshot)
  }

  func waitForConnections(_ count: Int) async -> [ConnectionID] {
    await withCheckedContinuation { continuation in
      lock.lock()
      if ids.count >= count {
        let snapshot = ids
        lock.unlock()
        continuation.resume(returning: snapshot)
      } else {
        waiter = (count, continuation)
        lock.unlock()
      }
    }
  }

  func transportReceived(_ id: ConnectionID, message: [UInt8]) {}
  func transportRejectedTooLarge(_ id: ConnectionID) {}
  func transportDrained(_ id: ConnectionID) {}
  func transportClosed(_ id: ConnectionID) {}
}
