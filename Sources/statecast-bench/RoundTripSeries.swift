import Foundation
import StatecastClient
import StatecastJSON

/// One kind of timed round trip, on a WebSocket of its own: an echo of 64 bytes (the
/// transport's floor), or a Statecast action until its reply.
///
/// `statecast-bench server` runs its kinds in alternating blocks rather than one after
/// the other, so that each ratio to the floor compares trips made under the same
/// conditions. On two cores, where the scheduler puts the client's and the server's
/// threads changes from one minute to the next, and measured one after the other the
/// same binary's ratio moved by half from run to run.
///
/// Each block also reads the server's service-thread CPU clock before and after, so the
/// series knows what its trips cost the server itself, apart from the wall clock's
/// waiting for wake-ups.
final class RoundTripSeries {
  let name: String
  private let client: WebSocketClient
  private let socket: WebSocketConnection
  private var events: AsyncStream<WebSocketEvent>.AsyncIterator
  private let kind: Kind
  /// Trips made so far (warm-up included): the next trip's index.
  private var made = 0
  /// Patches received before their replies (actions only).
  private var patches = 0
  private(set) var samples: [Double] = []
  private var cpuNanoseconds = 0.0
  private var cpuKnown = true

  private enum Kind {
    case echo(payload: [UInt8])
    /// Each trip's message and the start of its expected reply, built before the clock
    /// starts (as the echo's payload is), so that no trip times string formatting.
    case action(topic: String, messages: [[UInt8]], replies: [[UInt8]], answerIsPatched: Bool)
  }

  private init(
    name: String, client: WebSocketClient, socket: WebSocketConnection, kind: Kind
  ) {
    self.name = name
    self.client = client
    self.socket = socket
    self.events = socket.events.makeAsyncIterator()
    self.kind = kind
  }

  /// Echo trips of `payloadSize` bytes on `/echo` of the same server.
  static func echo(name: String, url: String, payloadSize: Int = 64) async throws -> RoundTripSeries {
    let client = try WebSocketClient()
    let socket = try await client.connect(to: url)
    let payload = [UInt8](repeating: UInt8(ascii: "e"), count: payloadSize)
    return RoundTripSeries(name: name, client: client, socket: socket, kind: .echo(payload: payload))
  }

  /// Action trips on `topic`, joined on a raw socket (as the echo's, so that both measure
  /// the server, not a client), for at most `trips` trips. With `answerIsPatched` false the
  /// actions cause no patch (the store's own effects, such as loading the counter's
  /// favourites, may still send a few).
  static func actions(
    name: String, url: String, topic: String, trips: Int, answerIsPatched: Bool = true,
    action: (Int) -> String
  ) async throws -> RoundTripSeries {
    let client = try WebSocketClient()
    let socket = try await client.connect(to: url, subprotocols: ["statecast.v1"])
    let messages = (1...trips).map { ref in
      Array(#"{"op":"action","ref":\#(ref),"topic":"\#(topic)","action":\#(action(ref))}"#.utf8)
    }
    let replies = (1...trips).map { ref in Array(#"{"op":"reply","ref":\#(ref),"status":"ok""#.utf8) }
    let series = RoundTripSeries(
      name: name, client: client, socket: socket,
      kind: .action(topic: topic, messages: messages, replies: replies, answerIsPatched: answerIsPatched))
    _ = try await series.nextText()  // hello
    socket.send(text: #"{"op":"join","ref":0,"topic":"\#(topic)"}"#)
    while try JSON(parsing: await series.nextText())["op"] != "reply" {}
    return series
  }

  /// Makes `count` trips; timed ones are kept in ``samples`` and their server CPU counted.
  func run(_ count: Int, timed: Bool, serverCPU: () -> Duration?) async throws {
    let cpuBefore = timed ? serverCPU() : nil
    for _ in 0..<count {
      let started = nowNanoseconds()
      try await trip()
      if timed { samples.append(Double(nowNanoseconds() - started)) }
    }
    guard timed else { return }
    if let cpuBefore, let cpuAfter = serverCPU() {
      let (seconds, attoseconds) = (cpuAfter - cpuBefore).components
      cpuNanoseconds += Double(seconds) * 1e9 + Double(attoseconds) / 1e9
    } else {
      cpuKnown = false
    }
  }

  /// The server's service-thread CPU time per timed trip, in nanoseconds.
  var serverCPUPerTrip: Double? {
    cpuKnown && !samples.isEmpty ? cpuNanoseconds / Double(samples.count) : nil
  }

  /// Checks what the trips received, and closes the socket.
  func finish() async throws {
    socket.close()
    await client.shutdown()
    guard case .action(let topic, _, _, let answerIsPatched) = kind else { return }
    guard answerIsPatched ? patches >= made : patches < 10 else {
      throw BenchmarkFailure("\(patches) patches for \(made) actions on \(topic)")
    }
  }

  private func trip() async throws {
    defer { made += 1 }
    switch kind {
    case .echo(let payload):
      socket.send(text: payload)
      _ = try await nextText()
    case .action(_, let messages, let replies, _):
      guard made < messages.count else { throw BenchmarkFailure("more trips than messages built") }
      socket.send(text: messages[made])
      while true {
        let bytes = try await nextText()
        guard bytes.starts(with: Self.replyPrefix) else {
          patches += 1
          continue
        }
        guard bytes.starts(with: replies[made]) else {
          throw BenchmarkFailure("unexpected reply: \(String(decoding: bytes, as: UTF8.self))")
        }
        return
      }
    }
  }

  private static let replyPrefix = Array(#"{"op":"reply""#.utf8)

  private func nextText() async throws -> [UInt8] {
    guard case .text(let bytes)? = await events.next() else { throw BenchmarkFailure("the socket closed") }
    return bytes
  }
}
