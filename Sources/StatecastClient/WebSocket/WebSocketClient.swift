import Foundation
import StatecastTransport

/// A WebSocket client over libwebsockets, able to hold thousands of connections (a load
/// test opens 10,000 from one client).
///
/// Why not `URLSessionWebSocketTask`: it is incomplete on Linux, cannot send the
/// malformed frames a server's conformance tests need (invalid UTF-8, oversized or
/// fragmented messages), and would not scale to load tests. Threading mirrors the
/// server's: one service thread (shared by every client of the process) alone touches
/// connections; tasks queue frames under a lock and wake it with `lws_cancel_service`.
/// The lws code is the transport's (`ClientEngine`); this is its public face.
///
///     let client = try WebSocketClient()
///     let connection = try await client.connect(to: "ws://127.0.0.1:8080/ws", subprotocols: ["statecast.v1"])
///     connection.send(text: #"{"op":"join","ref":1,"topic":"counter"}"#)
///     for await event in connection.events { print(event) }
///     await client.shutdown()
public final class WebSocketClient: Sendable {
  /// Limits of a client.
  public struct Configuration: Sendable {
    /// The largest message a connection reassembles; a larger one closes it with 1009.
    public var maxMessageSize = 16 * 1_048_576

    public init() {}
  }

  public let configuration: Configuration
  let engine: ClientEngine

  private struct Connections {
    var openIDs: Set<UInt64> = []
    var stopping = false
    var drainWaiters: [CheckedContinuation<Void, Never>] = []
  }
  private let connections = Locked(Connections())

  /// A client; cheap, since every client shares the process's client context.
  ///
  /// - Throws: ``WebSocketClientError/connectionFailed(_:)`` if libwebsockets cannot
  ///   create its client context.
  public init(configuration: Configuration = .init()) throws {
    self.configuration = configuration
    do {
      engine = try ClientEngine.shared.get()
    } catch {
      throw WebSocketClientError.connectionFailed(error.reason)
    }
  }

  /// Opens a WebSocket and returns once the upgrade has succeeded. Any task.
  ///
  /// - Parameters:
  ///   - url: `ws://host[:port]/path` or `wss://...`.
  ///   - subprotocols: offered in `Sec-WebSocket-Protocol`, in order of preference.
  ///   - origin: sent as the `Origin` header, exactly as given (what a browser on that
  ///     page would send).
  ///   - allowInsecureTLS: accept a self-signed or otherwise unverifiable certificate
  ///     (tests, local development).
  /// - Throws: ``WebSocketClientError`` when the URL is invalid, the connection or the
  ///   upgrade fails (a refused upgrade included), or the client was shut down.
  public func connect(
    to url: String, subprotocols: [String] = [], origin: String? = nil, allowInsecureTLS: Bool = false
  ) async throws -> WebSocketConnection {
    guard let target = ConnectTarget(url: url) else { throw WebSocketClientError.invalidURL(url) }
    let id = engine.makeID()
    let admitted = connections.withLock {
      guard !$0.stopping else { return false }
      $0.openIDs.insert(id)
      return true
    }
    guard admitted else { throw WebSocketClientError.clientStopped }
    let (events, continuation) = AsyncStream.makeStream(of: WebSocketEvent.self)
    let subprotocol = try await withCheckedThrowingContinuation {
      (opened: CheckedContinuation<String?, any Error>) in
      let request = ConnectRequest(
        id: id, target: target, subprotocols: subprotocols, origin: origin,
        allowInsecureTLS: allowInsecureTLS,
        maxMessageSize: configuration.maxMessageSize,
        events: ConnectionEvents(id: id, client: self, events: continuation, opened: opened))
      if !engine.connect(request) {
        connectionEnded(id)
        continuation.finish()
        opened.resume(throwing: WebSocketClientError.clientStopped)
      }
    }
    return WebSocketConnection(id: id, client: self, events: events, subprotocol: subprotocol)
  }

  /// The number of this client's connections that are open or opening. Any thread.
  public var connectionCount: Int {
    connections.withLock { $0.openIDs.count }
  }

  /// Refuses new connects, closes every open connection of this client with 1001, and
  /// waits up to `gracePeriod` for the closing handshakes. Any task; idempotent.
  public func shutdown(gracePeriod: Duration = .seconds(2)) async {
    let ids = connections.withLock {
      $0.stopping = true
      return $0.openIDs
    }
    for id in ids { _ = engine.close(id, code: 1001, reason: "client shutting down") }
    await withTaskGroup(of: Void.self) { group in
      group.addTask { await self.waitUntilDrained() }
      group.addTask { try? await Task.sleep(for: gracePeriod) }
      await group.next()
      group.cancelAll()
    }
    resumeDrainWaiters()
  }

  /// Called when one of this client's connections has ended (or failed to open).
  /// Service thread, or the connecting task.
  func connectionEnded(_ id: UInt64) {
    let drained = connections.withLock {
      $0.openIDs.remove(id)
      return $0.openIDs.isEmpty
    }
    if drained { resumeDrainWaiters() }
  }

  private func waitUntilDrained() async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let drained = connections.withLock {
        if $0.openIDs.isEmpty { return true }
        $0.drainWaiters.append(continuation)
        return false
      }
      if drained { continuation.resume() }
    }
  }

  private func resumeDrainWaiters() {
    let waiters = connections.withLock { connections in
      defer { connections.drainWaiters = [] }
      return connections.drainWaiters
    }
    for waiter in waiters { waiter.resume() }
  }
}

/// What the client engine tells one connection, turned into its ``WebSocketEvent``s and
/// the answer of its `connect`. Service thread.
private struct ConnectionEvents: ClientConnectionEvents {
  let id: UInt64
  let client: WebSocketClient
  let events: AsyncStream<WebSocketEvent>.Continuation
  /// Resumed once: by ``opened(subprotocol:)`` or ``failed(_:)``.
  let opened: CheckedContinuation<String?, any Error>

  func opened(subprotocol: String?) {
    opened.resume(returning: subprotocol)
  }

  func failed(_ reason: String) {
    opened.resume(throwing: WebSocketClientError.connectionFailed(reason))
    events.finish()
    client.connectionEnded(id)
  }

  func received(_ message: [UInt8], binary: Bool) {
    events.yield(binary ? .binary(message) : .text(message))
  }

  func closed(code: UInt16, reason: String) {
    events.yield(.closed(code: code, reason: reason))
    events.finish()
    client.connectionEnded(id)
  }
}
