import Foundation

/// A Statecast server: static files and the `/ws` endpoint on one port, one store per
/// browser tab and topic (or one per room for shared routes).
///
/// ```swift
/// let server = StatecastServer(routes: [
///   .perSession("counter", clientAction: Counter.ClientAction.self, embed: Counter.Action.client,
///               view: Counter.viewState, store: { _ in Counter.makeStore(dependencies: live) })
/// ])
/// let termination = TerminationSignal()
/// let port = try server.start()
/// print("listening on http://127.0.0.1:\(port)")
/// await termination.wait()
/// await server.shutdown()
/// ```
public final class StatecastServer: Sendable {
  public let configuration: ServerConfiguration
  private let hub: ConnectionHub
  private let transport: WebSocketTransport

  public init(configuration: ServerConfiguration = ServerConfiguration(), routes: [Route]) {
    self.configuration = configuration
    hub = ConnectionHub(configuration: configuration, routes: routes)
    transport = WebSocketTransport(configuration: TransportConfiguration(configuration), handler: hub)
    hub.connect(to: transport)
  }

  /// Starts listening; returns the bound port once connections are accepted.
  @discardableResult
  public func start() throws -> Int {
    try transport.start()
  }

  /// Graceful stop: no new connections, every socket closed with 1001 ("going away"),
  /// then every store closed (effects cancelled and awaited). Each of the two steps may
  /// take up to ``ServerConfiguration/shutdownDeadline`` (4 s by default, so that the
  /// whole fits in the 10 s a container is given to stop).
  public func shutdown() async {
    hub.beginShutdown()
    await transport.shutdown(gracePeriod: configuration.shutdownDeadline)
    await hub.shutdown()
  }
}

extension WebSocketTransport: FrameSink {
  func broadcast(_ frame: OutboundFrame, to connections: [ConnectionID]) -> BroadcastOutcome {
    send(frame, to: connections)
  }
}

extension TransportConfiguration {
  init(_ server: ServerConfiguration) {
    self.init()
    host = server.host
    port = server.port
    publicDirectory = server.publicDirectory
    appPages = server.appPages
    tls = server.tls
    echo = server.echo
    allowedOrigins = server.allowedOrigins
    maxMessageSize = server.maxMessageSize
    pingInterval = server.pingInterval
    idleTimeout = server.idleTimeout
  }
}
