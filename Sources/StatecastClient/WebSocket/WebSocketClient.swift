import Foundation

/// A WebSocket client over libwebsockets, able to hold thousands of connections (a load
/// test opens 10,000 from one client).
///
/// Why not `URLSessionWebSocketTask`: it is incomplete on Linux, cannot send the
/// malformed frames a server's conformance tests need (invalid UTF-8, oversized or
/// fragmented messages), and would not scale to load tests. Threading mirrors the
/// server's: one service thread (shared by every client of the process) alone touches
/// connections; tasks queue frames under a lock and wake it with `lws_cancel_service`.
///
///     let client = try WebSocketClient()
///     let connection = try await client.connect(to: "ws://127.0.0.1:8080/ws", subprotocols: ["statecast.v1"])
///     connection.send(text: #"{"op":"join","ref":1,"topic":"counter"}"#)
///     for await event in connection.events { print(event) }
///     await client.shutdown()
public final class WebSocketClient: @unchecked Sendable {
  // Sendable: the mutable fields are guarded by `lock`.

  /// Limits of a client.
  public struct Configuration: Sendable {
    /// The largest message a connection reassembles; a larger one closes it with 1009.
    public var maxMessageSize = 16 * 1_048_576

    public init() {}
  }

  public let configuration: Configuration
  let engine: ClientEngine
  private let lock = NSLock()
  private var openIDs: Set<UInt64> = []  // guarded by lock
  private var stopping = false  // guarded by lock
  private var drainWaiters: [CheckedContinuation<Void, Never>] = []  // guarded by lock

  /// A client; cheap, since every client shares the process's client context.
  ///
  /// - Throws: ``WebSocketClientError/connectionFailed(_:)`` if libwebsockets cannot
  ///   create its client context.
  public init(configuration: Configuration = .init()) throws {
    self.configuration = configuration
    engine = try ClientEngine.shared.get()
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
    let connection = WebSocketConnection(id: engine.core.makeID(), client: self)
    let admitted = lock.withLock {
      guard !stopping else { return false }
      openIDs.insert(connection.id)
      return true
    }
    guard admitted else { throw WebSocketClientError.clientStopped }
    try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
      let request = ConnectRequest(
        target: target, subprotocols: subprotocols, origin: origin, allowInsecureTLS: allowInsecureTLS,
        connection: connection, continuation: continuation)
      if !engine.core.enqueue(request) {
        connectionEnded(connection.id)
        continuation.resume(throwing: WebSocketClientError.clientStopped)
      }
    }
    return connection
  }

  /// The number of this client's connections that are open or opening. Any thread.
  public var connectionCount: Int {
    lock.withLock { openIDs.count }
  }

  /// Refuses new connects, closes every open connection of this client with 1001, and
  /// waits up to `gracePeriod` for the closing handshakes. Any task; idempotent.
  public func shutdown(gracePeriod: Duration = .seconds(2)) async {
    let ids = lock.withLock {
      stopping = true
      return openIDs
    }
    for id in ids { _ = engine.core.close(id, code: 1001, reason: "client shutting down") }
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
    let drained = lock.withLock {
      openIDs.remove(id)
      return openIDs.isEmpty
    }
    if drained { resumeDrainWaiters() }
  }

  private func waitUntilDrained() async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let drained = lock.withLock {
        if openIDs.isEmpty { return true }
        drainWaiters.append(continuation)
        return false
      }
      if drained { continuation.resume() }
    }
  }

  private func resumeDrainWaiters() {
    let waiters = lock.withLock {
      defer { drainWaiters = [] }
      return drainWaiters
    }
    for waiter in waiters { waiter.resume() }
  }
}
