import Foundation
import StatecastClient

@testable import StatecastTransport

/// A running transport on a free port, serving a fresh public directory, with a
/// ``RecordingHandler`` and a WebSocket client; `stop()` shuts both down.
struct TransportFixture {
  let transport: WebSocketTransport
  let handler: RecordingHandler
  let client: WebSocketClient
  let port: Int
  let root: URL

  var publicDirectory: URL { root.appendingPathComponent("public") }
  var wsURL: String { "ws://127.0.0.1:\(port)/ws" }
  var echoURL: String { "ws://127.0.0.1:\(port)/echo" }

  /// The files of the public directory, and one file next to it that must never be served.
  static let files: [String: String] = [
    "index.html": "<!doctype html><title>home</title>",
    "app.js": "export const app = 1;",
    "module.mjs": "export const module = 2;",
    "style.css": "body { margin: 0 }",
    "icon.svg": "<svg xmlns=\"http://www.w3.org/2000/svg\"/>",
    "data.json": "{\"a\":1}",
    "image.png": "PNG",
    "favicon.ico": "ICO",
    "site.webmanifest": "{\"name\":\"statecast\"}",
    "music.html": "<!doctype html><title>music</title>",
    "nested/page.html": "<p>nested</p>",
    ".env": "SECRET=env",
    "nested/.git/config": "secret git",
    ".well-known/security.txt": "Contact: mailto:security@example.com",
  ]

  static func start(
    echoes: Bool = false, configure: (inout TransportConfiguration) -> Void = { _ in }
  ) throws -> TransportFixture {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent(
      "statecast-transport-\(UUID().uuidString)")
    let publicDirectory = root.appendingPathComponent("public")
    for folder in ["nested/.git", ".well-known"] {
      try FileManager.default.createDirectory(
        at: publicDirectory.appendingPathComponent(folder), withIntermediateDirectories: true)
    }
    for (name, contents) in files {
      try contents.write(to: publicDirectory.appendingPathComponent(name), atomically: true, encoding: .utf8)
    }
    try "secret".write(to: root.appendingPathComponent("secret.txt"), atomically: true, encoding: .utf8)

    var configuration = TransportConfiguration(port: 0, publicDirectory: publicDirectory.path)
    configuration.appPages = ["/music": "music.html"]
    configure(&configuration)
    let handler = RecordingHandler(echoes: echoes)
    let transport = WebSocketTransport(configuration: configuration, handler: handler)
    handler.transport = transport
    let port = try transport.start()
    return TransportFixture(
      transport: transport, handler: handler, client: try WebSocketClient(), port: port, root: root)
  }

  func stop() async {
    await client.shutdown()
    await transport.shutdown(gracePeriod: .seconds(2))
    try? FileManager.default.removeItem(at: root)
  }
}

extension WebSocketConnection {
  /// The next event, or `nil` once the events have ended.
  func nextEvent() async -> WebSocketEvent? {
    var iterator = events.makeAsyncIterator()
    return await iterator.next()
  }

  /// Waits for the `.closed` event, skipping messages, and returns its code.
  func closeCode() async -> UInt16? {
    for await event in events {
      if case .closed(let code, _) = event { return code }
    }
    return nil
  }
}
