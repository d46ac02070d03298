import Foundation
import Statecast
import StatecastClient
import StatecastExamples
import StatecastJSON
import StatecastServer

/// Section "uploads": one upload's throughput against the transport's own floor (the
/// same bytes echoed by `/echo` with the same window of chunks in flight) in the same
/// run, 100 uploads at once, and the server's memory per upload in flight.
func runUploadBenchmarks() async throws {
  var configuration = ServerConfiguration()
  configuration.port = 0
  configuration.publicDirectory = nil
  configuration.echo = true
  let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
    "statecast-bench-\(UUID().uuidString)")
  configuration.uploadDirectory = directory.path
  let server = StatecastServer(
    configuration: configuration, routes: [.perSession("uploads", BenchUploads.self, dependencies: ())])
  let port = try server.start()
  let url = "ws://127.0.0.1:\(port)/ws"
  let size = benchSize(64 << 20, minimum: 1 << 20)
  let data = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 2_654_435_761 >> 13) }

  let client = try WebSocketClient()
  let floorSeconds = try await echoWindowed(url: "ws://127.0.0.1:\(port)/echo", data: data, client: client)
  var uploadSeconds: [Double] = []
  for _ in 0..<(isQuickRun ? 1 : 3) {
    uploadSeconds.append(try await upload(data, to: url, client: client))
  }
  let concurrent = isQuickRun ? 10 : 100
  let each = benchSize(1 << 20, minimum: 64 << 10)
  let piece = Array(data.prefix(each))
  let started = nowNanoseconds()
  try await withThrowingTaskGroup(of: Double.self) { group in
    for _ in 0..<concurrent { group.addTask { try await upload(piece, to: url, client: client) } }
    try await group.waitForAll()
  }
  let concurrentSeconds = Double(nowNanoseconds() - started) / 1e9
  await client.shutdown()
  await server.shutdown()
  try? FileManager.default.removeItem(at: directory)

  let megabytes = Double(size) / 1e6
  let uploadMedian = median(uploadSeconds)
  func rate(_ bytes: Double, _ seconds: Double) -> String {
    String(format: "%.0f MB/s", bytes / 1e6 / seconds)
  }
  printTable(
    "uploads: throughput over loopback (\(String(format: "%.0f", megabytes)) MB, 64 KB chunks, 8 in flight)",
    [
      BenchRow(
        name: "/echo, same chunks and window (transport floor)",
        columns: [("rate", rate(Double(size), floorSeconds)), ("of floor", "1.00")]),
      BenchRow(
        name: "one upload: announce, chunks, acks, SHA-256, action (median of \(uploadSeconds.count))",
        columns: [
          ("rate", rate(Double(size), uploadMedian)),
          ("of floor", String(format: "%.2f", floorSeconds / uploadMedian)),
        ]),
      BenchRow(
        name: "\(concurrent) uploads at once, \(UploadLimits.describe(each)) each",
        columns: [
          ("rate", rate(Double(each * concurrent), concurrentSeconds)),
          (
            "of floor",
            String(
              format: "%.2f", (Double(each * concurrent) / concurrentSeconds) / (Double(size) / floorSeconds))
          ),
        ]),
    ])
  try await runUploadsInFlight(count: isQuickRun ? 10 : 100)
}

/// The demo server in its own process: `count` tabs each start a 20 MB upload and send
/// one window of chunks, then wait; the server's resident memory is read before and after.
private func runUploadsInFlight(count: Int) async throws {
  let server = try DemoServerProcess.start()
  defer { server.stop() }
  let client = try WebSocketClient()
  let before = server.residentBytes()
  var sockets: [WebSocketConnection] = []
  for _ in 0..<count {
    let (socket, events, upload) = try await announce(size: 20 << 20, url: server.url, client: client)
    var iterator = events
    let chunk = [UInt8](repeating: 7, count: upload.chunk)
    for index in 0..<upload.window {
      socket.send(binary: header(upload.id, offset: index * upload.chunk) + chunk)
    }
    var acknowledged = 0
    while acknowledged < upload.window * upload.chunk {
      let message = try await nextJSON(&iterator)
      if message["op"] == .string("upload_ack"), case .int(let offset)? = message["offset"] {
        acknowledged = Int(offset)
      }
    }
    sockets.append(socket)
  }
  let after = server.residentBytes()
  for socket in sockets { socket.close() }
  await client.shutdown()
  printTable(
    "uploads: server memory per upload in flight (demo server process RSS)",
    [
      BenchRow(
        name: "\(count) tabs, one 20 MB upload each, 8 chunks written",
        columns: [
          ("RSS before", String(format: "%.1f MB", Double(before) / 1e6)),
          ("after", String(format: "%.1f MB", Double(after) / 1e6)),
          (
            "per upload (with its session)",
            String(format: "%.1f KB", Double(after - before) / Double(count) / 1e3)
          ),
        ])
    ])
}

/// A feature that keeps nothing: it accepts every file up to 1 GB.
private enum BenchUploads: UploadingFeature {
  typealias State = Int
  typealias Action = Int
  typealias ClientAction = Int
  typealias ViewState = Int
  static let uploadLimits = UploadLimits(maxFileSize: 1 << 30, maxFiles: 1_000, sessionQuota: 1 << 40)
  static func fileUploaded(_ file: UploadedFile) -> Int {
    try? FileManager.default.removeItem(atPath: file.path)
    return file.size
  }
  static func embed(_ action: Int) -> Int { action }
  static func viewState(_ state: Int) -> Int { state }
  static func makeStore(dependencies: Void, join: Join) -> Store<Int, Int> {
    Store(
      initialState: 0,
      reducer: Reducer { state, action in
        state += action
        return .none
      })
  }
}

private struct Announced {
  let id: String
  let chunk: Int
  let window: Int
}

private func nextJSON(_ events: inout AsyncStream<WebSocketEvent>.Iterator) async throws -> JSON {
  while true {
    switch await events.next() {
    case .text(let bytes)?: return try JSON(parsing: bytes)
    case .binary?: continue
    default: throw BenchmarkFailure("the socket closed")
    }
  }
}

private func header(_ id: String, offset: Int) -> [UInt8] {
  var bytes = [UInt8]()
  var digits = id.utf8.makeIterator()
  while let high = digits.next(), let low = digits.next() {
    bytes.append(UInt8(String(decoding: [high, low], as: UTF8.self), radix: 16) ?? 0)
  }
  for shift in stride(from: 56, through: 0, by: -8) {
    bytes.append(UInt8(truncatingIfNeeded: offset >> shift))
  }
  return bytes
}

private func announce(size: Int, url: String, client: WebSocketClient) async throws -> (
  WebSocketConnection, AsyncStream<WebSocketEvent>.Iterator, Announced
) {
  let socket = try await client.connect(to: url, subprotocols: ["statecast.v1"])
  var events = socket.events.makeAsyncIterator()
  _ = try await nextJSON(&events)  // hello
  socket.send(text: #"{"op":"join","ref":1,"topic":"uploads"}"#)
  while try await nextJSON(&events)["op"] != .string("reply") {}
  socket.send(text: #"{"op":"upload","ref":2,"topic":"uploads","name":"bench.bin","size":\#(size)}"#)
  while true {
    let message = try await nextJSON(&events)
    guard message["op"] == .string("reply") else { continue }
    guard case .string(let id)? = message["upload"], case .int(let chunk)? = message["chunk"],
      case .int(let window)? = message["window"]
    else { throw BenchmarkFailure("upload refused: \(message)") }
    return (socket, events, Announced(id: id, chunk: Int(chunk), window: Int(window)))
  }
}

/// Uploads `data` on a fresh socket with the server's window; returns the seconds from
/// the announcement to `upload_done`.
private func upload(_ data: [UInt8], to url: String, client: WebSocketClient) async throws -> Double {
  let started = nowNanoseconds()
  var (socket, events, upload) = try await announce(size: data.count, url: url, client: client)
  var sent = 0
  var acknowledged = 0
  while true {
    while sent < data.count && sent - acknowledged < upload.window * upload.chunk {
      let end = min(sent + upload.chunk, data.count)
      socket.send(binary: header(upload.id, offset: sent) + data[sent..<end])
      sent = end
    }
    let message = try await nextJSON(&events)
    if message["op"] == .string("upload_ack"), case .int(let offset)? = message["offset"] {
      acknowledged = Int(offset)
    } else if message["op"] == .string("upload_done") {
      break
    } else if message["op"] == .string("upload_error") {
      throw BenchmarkFailure("upload failed: \(message)")
    }
  }
  let seconds = Double(nowNanoseconds() - started) / 1e9
  socket.close()
  _ = upload
  return seconds
}

/// The same bytes, chunks and window through `/echo`: each chunk comes back whole,
/// where an upload's comes back as a small acknowledgement.
private func echoWindowed(url: String, data: [UInt8], client: WebSocketClient) async throws -> Double {
  let socket = try await client.connect(to: url)
  var events = socket.events.makeAsyncIterator()
  let chunk = 65_536 - 24
  let window = 8
  let started = nowNanoseconds()
  var sent = 0
  var received = 0
  while received < data.count {
    while sent < data.count && sent - received < window * chunk {
      let end = min(sent + chunk, data.count)
      socket.send(binary: header(String(repeating: "0", count: 32), offset: sent) + data[sent..<end])
      sent = end
    }
    guard case .binary(let bytes)? = await events.next() else { throw BenchmarkFailure("the echo closed") }
    received += bytes.count - 24
  }
  let seconds = Double(nowNanoseconds() - started) / 1e9
  socket.close()
  return seconds
}
