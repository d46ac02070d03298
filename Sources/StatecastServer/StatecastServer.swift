import Foundation
import Logging
public import ServiceLifecycle
import StatecastStorage
import Synchronization

/// A Statecast server: static files and the `/ws` endpoint on one port, one store per
/// browser tab and topic (or one per room for shared routes).
///
/// It is a swift-service-lifecycle `Service`: ``run()`` starts it, serves until the
/// service group shuts down gracefully (SIGTERM, SIGINT, or another service ending),
/// then shuts down, so an app runs Statecast beside its other services in one process.
///
/// ```swift
/// let server = StatecastServer(
///   routes: [.perSession("counter", Counter.self, dependencies: live)],
///   onServerRunning: { port in print("listening on http://127.0.0.1:\(port)") }
/// )
/// let group = ServiceGroup(
///   services: [server], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
/// try await group.run()
/// ```
public final class StatecastServer: Service, Sendable {
  /// What the server was created with.
  public let configuration: ServerConfiguration
  private let onServerRunning: @Sendable (Int) async -> Void
  private let waitingFor: (@Sendable () async throws -> Void)?
  private let topics: TopicRegistry
  private let sessions: SessionRegistry
  private let hub: ConnectionHub
  private let transport: WebSocketTransport
  private let storage: (any StateStorage)?
  let cluster: ClusterNode?
  /// `nil` when ``ServerConfiguration/metrics`` is `.off`.
  private let metricsPublisher: MetricsPublisher?

  /// A server of `routes`; nothing listens until ``run()`` (or ``start()``).
  ///
  /// - Parameters:
  ///   - configuration: where to listen and every limit.
  ///   - routes: the topics browsers may join.
  ///   - persistence: where durable routes keep their rooms and sessions are saved, and
  ///     whether the process is one of a cluster: `.inMemory` (the default),
  ///     `.sqlite(storage)` for one process, `.cluster(postgres)` for several.
  ///   - waitingFor: what must be ready before the server takes WebSockets, such as the
  ///     database of `persistence` (`{ try await postgres.waitUntilReady() }`). ``run()``
  ///     listens at once, so `GET /healthz` answers 200 (alive) while `GET /readyz`
  ///     answers 503 and upgrades are refused with 503, until it returns: an orchestrator
  ///     neither restarts the process nor sends it clients while the database is away.
  ///     A graceful shutdown meanwhile cancels it. `nil`: ready as soon as listening.
  ///   - onServerRunning: called by ``run()`` with the bound port once connections are
  ///     accepted (after `waitingFor`). Standard output is flushed when it returns, so
  ///     a line it `print`s ("listening on …") reaches a script reading a pipe at once.
  public init(
    configuration: ServerConfiguration = ServerConfiguration(),
    routes: [Route],
    persistence: Persistence = .inMemory,
    waitingFor: (@Sendable () async throws -> Void)? = nil,
    onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in }
  ) {
    self.configuration = configuration
    self.onServerRunning = onServerRunning
    self.waitingFor = waitingFor
    let storage = persistence.storage
    self.storage = storage
    let relay = SinkRelay()
    // One quota for the members of this process, whichever process runs their room.
    let newRoomQuota = NewRoomQuota(
      perViewer: configuration.maxNewRoomsPerViewer, perAddress: configuration.maxNewRoomsPerAddress,
      window: configuration.newRoomWindow)
    let cluster = persistence.backplane.map {
      ClusterNode(
        backplane: $0, gracePeriod: configuration.sessionGracePeriod, newRoomQuota: newRoomQuota,
        logger: configuration.logger(for: .cluster))
    }
    self.cluster = cluster
    cluster?.connect(to: relay)
    metricsPublisher = MetricsPublisher(configuration.metrics)
    let metrics = metricsPublisher?.metrics
    let capture = PageFrameCapture(base: relay)
    let roomSink: any FrameSink =
      cluster.map { node in
        ClusterSink(base: capture, remotes: node.remotes, post: { [weak node] in node?.post($0, to: $1) })
      } ?? capture
    let uploads = UploadRegistry(
      directory: configuration.uploadDirectory.map { URL(fileURLWithPath: $0) }
        ?? FileManager.default.temporaryDirectory.appendingPathComponent(
          "statecast-uploads-\(SessionID.make())"),
      keepsPartialUploads: configuration.uploadDirectory != nil, maxMessageSize: configuration.maxMessageSize,
      sink: relay, logger: configuration.logger(for: .topics))
    topics = TopicRegistry(
      routes: routes.flatMap(\.topics), sink: roomSink,
      maxTopicsPerSession: configuration.maxTopicsPerSession,
      logger: configuration.logger(for: .topics), storeLogger: configuration.logger(for: .stores),
      storage: storage, metrics: metrics, cluster: cluster,
      newRoomQuota: newRoomQuota,
      uploads: uploads)
    sessions = SessionRegistry(
      topics: topics, gracePeriod: configuration.sessionGracePeriod,
      logger: configuration.logger(for: .sessions), storage: storage, savesEveryChange: cluster != nil)
    var pages: PageService?
    if configuration.rendersPages,
      let directory = configuration.publicDirectory.map({ PublicDirectory.resolve($0) })
    {
      pages = PageService(
        directory: directory, appPages: configuration.appPages,
        templates: PageTemplates(reloads: configuration.reloadsPageTemplates),
        sessions: PageSessions(
          sessions: sessions, topics: topics, capture: capture, grace: configuration.pageSessionGrace,
          maxWaiting: configuration.maxWaitingPageSessions),
        authenticate: configuration.authenticate)
    }
    let executor = ServiceExecutor()
    let hub = ConnectionHub(
      configuration: configuration, sink: relay, sessions: sessions, topics: topics, uploads: uploads,
      metrics: metrics, pages: pages, executor: executor)
    self.hub = hub
    // A follower's member that waited for a fresh snapshot gets its held replies as a
    // drained socket does.
    cluster?.relay.onSnapshotWaitEnded { [weak hub] connection in hub?.transportDrained(connection) }
    var transportConfiguration = TransportConfiguration(configuration)
    transportConfiguration.metrics = metrics?.endpoint
    if let pages {
      transportConfiguration.pagePaths = Set(pages.pages.keys)
      transportConfiguration.pageRoute = { await pages.answer($0) }
    }
    transport = WebSocketTransport(configuration: transportConfiguration, handler: hub, executor: executor)
    relay.connect(to: transport)
  }

  /// Starts listening, serves until a graceful shutdown of the service group, then
  /// drains (see ``drain()``: sockets closed with 1012); on cancellation it shuts down
  /// (see ``shutdown()``: 1001).
  public func run() async throws {
    let logger = configuration.logger
    let port: Int
    if let waitingFor {
      transport.holdUntilReady()
      port = try transport.start()
      logger.info("alive, waiting to be ready", metadata: ["port": "\(port)"])
      do {
        try await cancelWhenGracefulShutdown { try await waitingFor() }
      } catch {
        await shutdown()
        if Task.isShuttingDownGracefully || Task.isCancelled { return }
        throw error
      }
      transport.markReady()
      startCompanions()
    } else {
      port = try start()
    }
    logger.info(
      "serving",
      metadata: ["host": "\(configuration.host)", "port": "\(port)", "tls": "\(configuration.tls != nil)"])
    await onServerRunning(port)
    // `print` is block-buffered when standard output is a pipe: a script waiting for
    // the line it printed would wait for kilobytes more. fflush(nil) flushes every stream.
    fflush(nil)
    let upkeep = Task { await keepStorage() }
    do {
      try await gracefulShutdown()
      upkeep.cancel()
      logger.info("draining")
      await drain()
    } catch {
      upkeep.cancel()
      logger.info("shutting down")
      await shutdown()
    }
    logger.info("stopped")
  }

  /// Drain for a restart: `/readyz` answers 503 and new upgrades are refused at once,
  /// every socket is closed with 1012 ("server restarting"), sessions are saved, and the
  /// stores get ``ServerConfiguration/drainTimeout`` to finish or cancel their effects.
  public func drain() async {
    transport.beginDraining()
    await stop(code: 1012, reason: "server restarting", storeDeadline: configuration.drainTimeout)
  }

  /// Starts listening; returns the bound port once connections are accepted. Starting a
  /// started server returns its port.
  @discardableResult
  public func start() throws -> Int {
    let port = try transport.start()
    startCompanions()
    return port
  }

  /// The CPU time the transport's service thread has used, where the server's actions
  /// run (`nil` before ``start()``): what a benchmark divides by the actions it sent.
  package var serviceThreadCPUTime: Duration? { transport.serviceThread.cpuTime }

  /// What runs beside a listening, ready transport: the cluster's node and the metrics.
  private func startCompanions() {
    cluster?.start()
    metricsPublisher?.start { [weak self] in self?.metricsSample }
  }

  /// What the metrics' gauges read now: the transport's counters and the registries'
  /// counts.
  private var metricsSample: ServerMetrics.Sample {
    ServerMetrics.Sample(
      transport: transport.statistics, connections: transport.connectionCount, sessions: sessions.counts,
      rooms: topics.roomCount, members: topics.memberCount)
  }

  /// Samples the metrics now and, when `/metrics` is served, renders it for the next
  /// scrape. Off the service thread.
  func refreshMetrics() {
    metricsPublisher?.refresh { metricsSample }
  }

  /// Graceful stop: no new connections or joins, every socket closed with 1001 ("going
  /// away"), then every store closed (effects cancelled and awaited). Each of the two
  /// steps may take up to ``ServerConfiguration/shutdownDeadline`` (4 s by default, so
  /// that the whole fits in the 10 s a container is given to stop).
  public func shutdown() async {
    await stop(code: 1001, reason: "server shutting down", storeDeadline: configuration.shutdownDeadline)
  }

  /// The steps of a shutdown, sockets closed with `code`.
  private func stop(code: UInt16, reason: String, storeDeadline: Duration) async {
    metricsPublisher?.stop()
    topics.beginShutdown()
    await transport.shutdown(gracePeriod: configuration.shutdownDeadline, code: code, reason: reason)
    hub.finishAll()
    // Saved before the stores close, so that every tab finds its state after a restart.
    await sessions.saveAll()
    sessions.removeAll()
    topics.uploads?.removeAll()
    let topics = self.topics
    await withTaskGroup(of: Void.self) { group in
      group.addTask { await topics.closeAll() }
      group.addTask { try? await Task.sleep(for: storeDeadline) }
      await group.next()
      group.cancelAll()
    }
    cluster?.stop()
  }

  /// While the server runs: sessions are saved every
  /// ``ServerConfiguration/sessionSaveInterval``, and rooms unused for
  /// ``ServerConfiguration/roomTimeToLive`` are deleted, at the first save after a
  /// start (a server restarted often still sweeps) and every minute after.
  private func keepStorage() async {
    guard let storage else { return }
    var sinceSweep = Duration.seconds(60)
    while !Task.isCancelled {
      try? await Task.sleep(for: configuration.sessionSaveInterval)
      guard !Task.isCancelled else { return }
      await sessions.saveAll()
      sinceSweep += configuration.sessionSaveInterval
      if let ttl = configuration.roomTimeToLive, sinceSweep >= .seconds(60) {
        sinceSweep = .zero
        // Rooms open here are in use, even if only read: they are kept.
        try? await storage.markRoomsUsed(topics.roomNames)
        _ = try? await storage.deleteRooms(unusedFor: ttl)
        _ = try? await storage.deleteSessions(unusedFor: max(ttl, .seconds(86_400)))
      }
    }
  }

  /// How many shared topics (rooms) the server holds now.
  var roomCount: Int { topics.roomCount }
  /// How many sessions the server holds now, live or waiting for a resume.
  var sessionCount: Int { sessions.count }
}

/// The frame sink the registries are made with, before the transport that it relays
/// to exists (the transport needs the hub, which needs the registries).
final class SinkRelay: FrameSink, Sendable {
  /// Set once, before the transport starts; then read on every frame without a lock.
  private let target = AtomicLazyReference<WebSocketTransport>()

  func connect(to transport: WebSocketTransport) {
    _ = target.storeIfNil(transport)
  }

  private var transport: WebSocketTransport? { target.load() }

  func send(_ frame: OutboundFrame, to connection: ConnectionID) -> SendOutcome {
    transport?.send(frame, to: connection) ?? .closed
  }

  func broadcast(_ frame: OutboundFrame, to connections: [ConnectionID]) -> BroadcastOutcome {
    guard let transport else {
      var outcome = BroadcastOutcome()
      outcome.closed = connections
      return outcome
    }
    return transport.send(frame, to: connections)
  }

  func close(_ connection: ConnectionID, code: UInt16, reason: String) {
    transport?.close(connection, code: code, reason: reason)
  }
}

extension TransportConfiguration {
  init(_ server: ServerConfiguration) {
    self.init()
    host = server.host
    port = server.port
    publicDirectory = server.publicDirectory.map { PublicDirectory.resolve($0) }
    appPages = server.appPages
    embeddedFiles = BrowserRuntime.files
    tls = server.tls
    echo = server.echo
    allowedOrigins = server.allowedOrigins
    allowedHosts = server.allowedHosts
    metricsAllowedAddresses = server.metricsAllowedAddresses
    maxMessageSize = server.maxMessageSize
    maxRequestHeaderSize = server.maxRequestHeaderSize
    pingInterval = server.pingInterval
    idleTimeout = server.idleTimeout
    upgradeCheck = server.authenticate.map { Authentication.upgradeCheck($0, secure: server.tls != nil) }
    upgradeHeaderNames = server.authenticationHeaders
    if let handoff = server.cookieHandoff {
      upgradeHeaderNames.append(CookieHandoff.ticketHeader)
      postRoutes[CookieHandoff.path] = { handoff.answer($0) }
    }
    maxConnections = server.maxConnections
    maxConnectionsPerAddress = server.maxConnectionsPerAddress
    outboundHighWatermark = server.outboundHighWatermark
    outboundHardLimit = server.outboundHardLimit
    responseHeaders.removeAll { $0.name == "Content-Security-Policy" }
    if let policy = server.contentSecurityPolicy {
      responseHeaders.append(
        ("Content-Security-Policy", InlineScripts.policy(policy, allowingScriptsOf: server.publicDirectory)))
    }
  }
}
