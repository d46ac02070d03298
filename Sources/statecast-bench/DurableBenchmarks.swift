import Foundation
import Statecast
import StatecastClient
import StatecastServer
import StatecastStorage

/// Section "durable": the same shared room in memory and durable (SQLite, WAL,
/// `synchronous = FULL`), in one run over real loopback sockets: one client sending
/// one action at a time (each durable round trip pays a commit), and 100 clients
/// pipelining at once (their actions share commits).
func runDurableBenchmarks() async throws {
  let data = FileManager.default.temporaryDirectory.appendingPathComponent(
    "statecast-bench-\(UUID().uuidString)")
  defer { try? FileManager.default.removeItem(at: data) }
  let storage = try SQLiteStorage(directory: data)
  var configuration = ServerConfiguration()
  configuration.port = 0
  configuration.publicDirectory = nil
  configuration.actionBurst = 10_000_000
  configuration.actionsPerSecond = 10_000_000
  let server = StatecastServer(
    configuration: configuration,
    routes: [
      .shared("memory/:id", DurableTally.self, dependencies: ()),
      .shared("durable/:id", DurableTally.self, dependencies: (), durability: .durable),
    ],
    persistence: .sqlite(storage))
  let port = try server.start()
  let url = "ws://127.0.0.1:\(port)/ws"
  let client = try WebSocketClient()

  var rows: [BenchRow] = []
  var sequential: [String: Double] = [:]
  for kind in ["memory", "durable"] {
    let samples = try await sequentialRoundTrips(
      url: url, topic: "\(kind)/seq", client: client, count: benchSize(400, minimum: 20))
    sequential[kind] = percentile(samples, 0.5)
    rows.append(
      BenchRow(
        name: "\(kind): 1 client, one action at a time",
        columns: [
          ("p50", formatDuration(nanoseconds: percentile(samples, 0.5))),
          ("p99", formatDuration(nanoseconds: percentile(samples, 0.99))),
          ("actions/s", String(format: "%.0f", 1e9 / percentile(samples, 0.5))),
          ("commits/s", "-"),
        ]))
  }
  var throughput: [String: Double] = [:]
  for kind in ["memory", "durable"] {
    let before = storage.counters.commits
    let (actions, seconds) = try await concurrentActions(
      url: url, topic: "\(kind)/many", client: client, clients: benchSize(100, minimum: 4),
      perClient: benchSize(100, minimum: 4))
    let commits = storage.counters.commits - before
    throughput[kind] = Double(actions) / seconds
    rows.append(
      BenchRow(
        name: "\(kind): 100 clients pipelining",
        columns: [
          ("p50", "-"), ("p99", "-"),
          ("actions/s", String(format: "%.0f", Double(actions) / seconds)),
          ("commits/s", kind == "durable" ? String(format: "%.0f", Double(commits) / seconds) : "-"),
        ]))
  }
  await client.shutdown()
  await server.shutdown()
  printTable("durable: the same room in memory and on disk (loopback, release)", rows)
  if let memory = sequential["memory"], let durable = sequential["durable"],
    let fast = throughput["memory"], let slow = throughput["durable"]
  {
    print(
      String(
        format: "sequential round trip grows by %@; 100-client durable throughput is %.0f%% of in-memory",
        formatDuration(nanoseconds: durable - memory), 100 * slow / fast))
  }
}

private func sequentialRoundTrips(url: String, topic: String, client: WebSocketClient, count: Int)
  async throws
  -> [Double]
{
  let socket = try await joined(url: url, topic: topic, client: client)
  var events = socket.events.makeAsyncIterator()
  var samples: [Double] = []
  for ref in 1...count {
    let started = nowNanoseconds()
    _ = socket.send(text: #"{"op":"action","ref":\#(ref),"topic":"\#(topic)","action":{"increment":{}}}"#)
    while true {
      guard case .text(let bytes)? = await events.next() else { throw BenchmarkFailure("the socket closed") }
      if bytes.starts(with: Array(#"{"op":"reply","ref":\#(ref),"status":"ok""#.utf8)) { break }
      if bytes.starts(with: Array(#"{"op":"reply""#.utf8))
        && !bytes.starts(with: Array(#"{"op":"reply","ref":0"#.utf8))
      {
        throw BenchmarkFailure("unexpected reply: \(String(decoding: bytes, as: UTF8.self))")
      }
    }
    if ref > count / 10 { samples.append(Double(nowNanoseconds() - started)) }
  }
  socket.close()
  return samples
}

/// Every client sends all its actions at once, then reads until every reply is in.
private func concurrentActions(
  url: String, topic: String, client: WebSocketClient, clients: Int, perClient: Int
)
  async throws -> (actions: Int, seconds: Double)
{
  var sockets: [WebSocketConnection] = []
  for _ in 0..<clients { sockets.append(try await joined(url: url, topic: topic, client: client)) }
  let started = nowNanoseconds()
  try await withThrowingTaskGroup(of: Void.self) { group in
    for socket in sockets {
      group.addTask {
        var events = socket.events.makeAsyncIterator()
        for ref in 1...perClient {
          _ = socket.send(
            text: #"{"op":"action","ref":\#(ref),"topic":"\#(topic)","action":{"increment":{}}}"#)
        }
        var replies = 0
        while replies < perClient {
          guard case .text(let bytes)? = await events.next() else {
            throw BenchmarkFailure("a socket closed")
          }
          if bytes.starts(with: Array(#"{"op":"reply""#.utf8)) {
            guard bytes.firstRange(of: Array(#""status":"ok""#.utf8)) != nil else {
              throw BenchmarkFailure("an action failed: \(String(decoding: bytes, as: UTF8.self))")
            }
            replies += 1
          }
        }
      }
    }
    try await group.waitForAll()
  }
  let seconds = Double(nowNanoseconds() - started) / 1e9
  for socket in sockets { socket.close() }
  return (clients * perClient, seconds)
}

private func joined(url: String, topic: String, client: WebSocketClient) async throws -> WebSocketConnection {
  let socket = try await client.connect(to: url, subprotocols: ["statecast.v1"])
  var events = socket.events.makeAsyncIterator()
  _ = await events.next()  // hello
  _ = socket.send(text: #"{"op":"join","ref":0,"topic":"\#(topic)"}"#)
  while case .text(let bytes)? = await events.next(), !bytes.starts(with: Array(#"{"op":"reply""#.utf8)) {}
  return socket
}

/// A shared counter that can be durable.
private enum DurableTally: DurableFeature {
  struct State: Codable, Sendable { var count = 0 }
  enum ClientAction: Codable, Sendable { case increment }
  struct ViewState: Encodable, Sendable { var count: Int }
  static var initialState: State { State() }
  static func embed(_ action: ClientAction) -> ClientAction { action }
  static func viewState(_ state: State) -> ViewState { ViewState(count: state.count) }
  static func makeStore(
    dependencies: Void, join: Join, state: State, commit: (@Sendable (Commit<State>) async throws -> Void)?
  ) -> Store<State, ClientAction> {
    Store(
      initialState: state,
      reducer: Reducer { state, _ in
        state.count += 1; return .none
      }, commit: commit)
  }
}
