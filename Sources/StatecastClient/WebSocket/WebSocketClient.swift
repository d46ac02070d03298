import Foundation

/// A WebSocket client over libwebsockets: one client context on its own service thread
/// holding any number of connections (a load test opens 10,000 from one client).
///
/// Why not `URLSessionWebSocketTask`: it is unavailable or incomplete on Linux, cannot
/// send the malformed frames the server's tests need (invalid UTF-8, oversized or
/// fragmented messages), and a thread per connection would not scale to load tests.
/// Threading mirrors the server's: the service thread alone touches connections; tasks
/// queue frames under a lock and wake it with `lws_cancel_service`.
///
///     let client = try WebSocketClient()
///     let connection = try await client.connect(to: "ws://127.0.0.1:8080/ws", subprotocols: ["statecast.v1"])
///     connection.send(text: #"{"op":"join","ref":1,"topic":"counter"}"#)
///     for await event in connection.events { print(event) }
///     await client.shutdown()
public final class WebSocketClient: @unchecked Sendable {
  // Sendable: `core` locks itself; `service` is confined to the service thread; the
  // stop waiters are guarded by `lifecycleLock`.

  /// Limits of a client.
  public struct Configuration: Sendable {
    /// The largest message the client reassembles; a larger one closes with 1009.
    public var maxMessageSize = 16 * 1_048_576
    /// The process's open-files limit is raised to at least this many (as far as the
    /// system allows) so that thousands of connections fit.
    public var fileDescriptorLimit = 65_536
    /// Seconds allowed for the TCP connect and for the upgrade's answer.
    public var connectTimeoutSeconds = 10

    public init() {}
  }

  public let configuration: Configuration
  let core: ClientCore
  let service: ClientServiceSide
  private let lifecycleLock = ClientLock()
  private var stopped = false  // guarded by lifecycleLock
  private var stopWaiters: [CheckedContinuation<Void, Never>] = []  // guarded by lifecycleLock

  /// Creates the client context and starts its service thread.
  ///
  /// - Throws: ``WebSocketClientError/connectionFailed(_:)`` if libwebsockets cannot
  ///   create a client context.
  public init(configuration: Configuration = .init()) throws {
    self.configuration = configuration
    core = ClientCore()
    service = ClientServiceSide(maxMessageSize: configuration.maxMessageSize)
    ClientLog.configure()
    ClientFileDescriptorLimit.raise(toAtLeast: configuration.fileDescriptorLimit)
    let context = try ClientContext(
      connectTimeoutSeconds: configuration.connectTimeoutSeconds, user: Unmanaged.passUnretained(self).toOpaque())
    core.attach(context.context)
    service.context = context.context
    let thread = Thread { [self] in
      runServiceLoop(context)
    }
    thread.name = "statecast-lws-client"
    thread.start()
  }

  /// Opens a WebSocket and returns once the upgrade has succeeded. Any task.
  ///
  /// - Parameters:
  ///   - url: `ws://host[:port]/path` or `wss://...`.
  ///   - subprotocols: offered in `Sec-WebSocket-Protocol`, in order of preference.
  ///   - origin: sent as the `Origin` header (what a browser on that origin would send).
  ///   - allowInsecureTLS: accept a self-signed or otherwise unverifiable certificate
  ///     (tests, local development).
  /// - Throws: ``WebSocketClientError`` when the URL is invalid, the connection or the
  ///   upgrade fails (a refused upgrade included), or the client was shut down.
  public func connect(
    to url: String, subprotocols: [String] = [], origin: String? = nil, allowInsecureTLS: Bool = false
  ) async throws -> WebSocketConnection {
    guard let target = ConnectTarget(url: url) else { throw WebSocketClientError.invalidURL(url) }
    let connection = WebSocketConnection(id: core.makeID(), client: self)
    try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
      let request = ConnectRequest(
        target: target, subprotocols: subprotocols, origin: origin, allowInsecureTLS: allowInsecureTLS,
        connection: connection, continuation: continuation)
      if !core.enqueue(request) {
        continuation.resume(throwing: WebSocketClientError.clientStopped)
      }
    }
    return connection
  }

  /// The number of open connections. Any thread.
  public var connectionCount: Int {
    core.connectionCount
  }

  /// Closes every connection (1001), stops the service thread and destroys the context
  /// on it. Waits up to `gracePeriod` for the closing handshakes. Any task; idempotent.
  public func shutdown(gracePeriod: Duration = .seconds(2)) async {
    core.beginShutdown()
    await withTaskGroup(of: Void.self) { group in
      group.addTask { await self.waitUntilStopped() }
      group.addTask {
        try? await Task.sleep(for: gracePeriod)
        if !Task.isCancelled { self.core.requestStop() }
      }
      await group.next()
      group.cancelAll()
    }
  }

  private func waitUntilStopped() async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let done: Bool = lifecycleLock.withLock {
        if stopped { return true }
        stopWaiters.append(continuation)
        return false
      }
      if done { continuation.resume() }
    }
  }

  /// The service thread's life: serve until stopped (or until a shutdown has closed
  /// every connection), then destroy the context here and fail what is left. Service
  /// thread.
  private func runServiceLoop(_ context: ClientContext) {
    while true {
      let state = core.loopState()
      if state.stop || (state.draining && service.isEmpty) { break }
      if context.serviceOnce() < 0 { break }
    }
    core.detach()
    context.destroy()
    service.failRemaining()
    let waiters: [CheckedContinuation<Void, Never>] = lifecycleLock.withLock {
      stopped = true
      defer { stopWaiters = [] }
      return stopWaiters
    }
    for waiter in waiters { waiter.resume() }
  }
}
