import Foundation
import Statecast
import StatecastClient
import StatecastServer

/// Section "rooms": one action in a room of 1,000 members over real loopback sockets,
/// with one view for everyone (encoded once, the same bytes to all) and with a view per
/// viewer (one diff per member), and what a member joining or leaving such a room costs
/// (presence is patched to everyone).
///
/// "all queued" is the acting member's round trip: its reply is queued after the patch
/// has been queued to every member. "last member has it" is until the slowest member's
/// socket has read the patch.
func runRoomBenchmarks() async throws {
  let members = benchSize(1_000, minimum: 20)
  var configuration = ServerConfiguration()
  configuration.port = 0
  configuration.publicDirectory = nil
  configuration.actionBurst = 10_000_000
  configuration.actionsPerSecond = 10_000_000
  configuration.maxPendingInboundBytes = 64 << 20
  // Every member connects from 127.0.0.1.
  configuration.maxConnectionsPerAddress = 4_096
  let server = StatecastServer(
    configuration: configuration,
    routes: [
      .shared("shared/:id", Tally.self, dependencies: ()),
      .shared("private/:id", PrivateTally.self, dependencies: ()),
    ])
  let port = try server.start()
  let url = "ws://127.0.0.1:\(port)/ws"
  let client = try WebSocketClient()

  var rows: [BenchRow] = []
  for (topic, name) in [("shared/1", "one view for all"), ("private/1", "a view per viewer")] {
    let room = try await Room.open(urls: [url], topic: topic, members: members, client: client)
    var queued: [Double] = []
    var delivered: [Double] = []
    for ref in 1...60 {
      let (toQueue, toLast) = try await room.act(ref: ref)
      if ref > 10 {
        queued.append(toQueue)
        delivered.append(toLast)
      }
    }
    rows.append(
      BenchRow(
        name: "\(members) members, \(name)",
        columns: [
          ("all queued p50", formatDuration(nanoseconds: percentile(queued, 0.5))),
          ("p99", formatDuration(nanoseconds: percentile(queued, 0.99))),
          ("last member has it p50", formatDuration(nanoseconds: percentile(delivered, 0.5))),
          ("p99", formatDuration(nanoseconds: percentile(delivered, 0.99))),
        ]))
    if topic == "shared/1" {
      let churn = try await room.churn(url: url, client: client, changes: benchSize(200, minimum: 4))
      rows.append(
        BenchRow(
          name: "a member joins or leaves (presence to \(members))",
          columns: [
            ("all queued p50", formatDuration(nanoseconds: percentile(churn, 0.5))),
            ("p99", formatDuration(nanoseconds: percentile(churn, 0.99))),
            ("last member has it p50", "-"), ("p99", "-"),
          ]))
    }
    room.close()
  }
  await client.shutdown()
  await server.shutdown()
  printTable("rooms: one action in a room of \(members) (loopback, release)", rows)
}

/// The members of one room, each on its own socket, counting the patches they read.
/// Also used by the cluster section, with members spread over several servers.
final class Room: @unchecked Sendable {
  private let sockets: [WebSocketConnection]
  private let topic: String
  private let lock = NSLock()
  private var arrived = 0
  private var lastArrival: UInt64 = 0
  private var expecting = 0
  private var waiter: CheckedContinuation<Void, Never>?
  private var readers: [Task<Void, Never>] = []

  private init(sockets: [WebSocketConnection], topic: String) {
    self.sockets = sockets
    self.topic = topic
  }

  /// Member `i` connects to `urls[i % urls.count]`; member 0 is the one that acts.
  static func open(urls: [String], topic: String, members: Int, client: WebSocketClient) async throws -> Room
  {
    var sockets: [WebSocketConnection] = []
    for index in 0..<members {
      let socket = try await client.connect(to: urls[index % urls.count], subprotocols: ["statecast.v1"])
      var events = socket.events.makeAsyncIterator()
      _ = await events.next()  // hello
      _ = socket.send(text: #"{"op":"join","ref":0,"topic":"\#(topic)"}"#)
      while case .text(let bytes)? = await events.next(), !bytes.starts(with: Array(#"{"op":"reply""#.utf8)) {
      }
      sockets.append(socket)
    }
    let room = Room(sockets: sockets, topic: topic)
    room.startReading()
    return room
  }

  private func startReading() {
    let marker = Array(#""/count""#.utf8)
    readers = sockets.dropFirst().map { socket in
      Task {
        for await event in socket.events {
          guard case .text(let bytes) = event, bytes.starts(with: Array(#"{"op":"patch""#.utf8)) else {
            continue
          }
          // Only the action's patch counts; presence patches (from churn) do not.
          guard bytes.firstRange(of: marker) != nil else { continue }
          self.memberReadPatch()
        }
      }
    }
  }

  private func memberReadPatch() {
    let now = nowNanoseconds()
    let done: CheckedContinuation<Void, Never>? = lock.withLock {
      arrived += 1
      lastArrival = now
      guard arrived == expecting, let waiter else { return nil }
      self.waiter = nil
      return waiter
    }
    done?.resume()
  }

  /// Member 0 sends one increment; returns (its round trip, until the last member read
  /// the patch), in nanoseconds.
  func act(ref: Int) async throws -> (Double, Double) {
    lock.withLock {
      arrived = 0
      expecting = sockets.count - 1
    }
    var events = sockets[0].events.makeAsyncIterator()
    let started = nowNanoseconds()
    async let everyone: Void = withCheckedContinuation { continuation in
      let already = lock.withLock {
        if arrived == expecting { return true }
        waiter = continuation
        return false
      }
      if already { continuation.resume() }
    }
    _ = sockets[0].send(text: #"{"op":"action","ref":\#(ref),"topic":"\#(topic)","action":{"increment":{}}}"#)
    while true {
      guard case .text(let bytes)? = await events.next() else {
        throw BenchmarkFailure("the acting socket closed")
      }
      if bytes.starts(with: Array(#"{"op":"reply","ref":\#(ref)"#.utf8)) { break }
    }
    let queued = Double(nowNanoseconds() - started)
    await everyone
    // A room of one has nobody else to wait for.
    let last = lock.withLock { expecting == 0 ? started : lastArrival }
    return (queued, Double(max(last, started) - started))
  }

  /// Members joining and leaving the room one after another: each join or leave's
  /// round trip, which includes queueing the presence patch to every member.
  func churn(url: String, client: WebSocketClient, changes: Int) async throws -> [Double] {
    let socket = try await client.connect(to: url, subprotocols: ["statecast.v1"])
    var events = socket.events.makeAsyncIterator()
    _ = await events.next()
    var samples: [Double] = []
    for ref in 1...changes {
      let op = ref % 2 == 1 ? "join" : "leave"
      let started = nowNanoseconds()
      _ = socket.send(text: #"{"op":"\#(op)","ref":\#(ref),"topic":"\#(topic)"}"#)
      while true {
        guard case .text(let bytes)? = await events.next() else {
          throw BenchmarkFailure("the churning socket closed")
        }
        if bytes.starts(with: Array(#"{"op":"reply","ref":\#(ref)"#.utf8)) { break }
      }
      samples.append(Double(nowNanoseconds() - started))
    }
    socket.close()
    return samples
  }

  func close() {
    for reader in readers { reader.cancel() }
    for socket in sockets { socket.close() }
  }
}

/// A shared counter: the same view for every member (also the cluster section's).
enum Tally: Feature {
  struct State: Sendable { var count = 0 }
  enum ClientAction: Codable, Sendable { case increment }
  struct ViewState: Encodable, Sendable { var count: Int }
  static func embed(_ action: ClientAction) -> ClientAction { action }
  static func viewState(_ state: State) -> ViewState { ViewState(count: state.count) }
  static func makeStore(dependencies: Void, join: Join) -> Store<State, ClientAction> {
    Store(
      initialState: State(),
      reducer: Reducer { state, _ in
        state.count += 1; return .none
      })
  }
}

/// The same counter whose view also says whether the viewer acted last: one diff per
/// viewer.
private enum PrivateTally: Feature {
  struct State: Sendable {
    var count = 0
    var lastActor = ""
  }
  enum Action: Sendable { case client(Viewer, Tally.ClientAction) }
  struct ViewState: Encodable, Sendable {
    var count: Int
    var actedLast: Bool
  }
  static func embed(_ action: Tally.ClientAction) -> Action { .client(.anonymous, action) }
  static func embed(_ action: Tally.ClientAction, from viewer: Viewer) -> Action { .client(viewer, action) }
  static var viewDependsOnViewer: Bool { true }
  static func viewState(_ state: State) -> ViewState { ViewState(count: state.count, actedLast: false) }
  static func viewState(_ state: State, for viewer: Viewer) -> ViewState {
    ViewState(count: state.count, actedLast: state.lastActor == viewer.id)
  }
  static func makeStore(dependencies: Void, join: Join) -> Store<State, Action> {
    Store(
      initialState: State(),
      reducer: Reducer { state, action in
        if case .client(let viewer, _) = action {
          state.count += 1
          state.lastActor = viewer.id
        }
        return .none
      })
  }
}
