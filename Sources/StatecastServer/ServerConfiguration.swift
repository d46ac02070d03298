public import CoreMetrics
public import Logging
public import Prometheus

/// Everything a ``StatecastServer`` can be told, with PROTOCOL.md's defaults.
public struct ServerConfiguration: Sendable {
  /// The address to listen on; `0.0.0.0` for every interface (as in a container).
  public var host = "127.0.0.1"
  /// The port; `0` picks a free one (``StatecastServer/start()`` returns it).
  public var port = 8080
  /// The directory of the app's static files (`index.html`, its pages, styles and
  /// images), or `nil`. A relative path is looked for in the working directory, then in
  /// the package the executable was built in, so `"Public"` finds the package's
  /// `Public/` under `swift run` from anywhere; a missing one stops the server with
  /// "public directory … does not exist". The browser runtime is not in it: the server
  /// serves its own (`/statecast/early.js`, `/statecast.js`, `/statecast.css`).
  public var publicDirectory: String? = "Public"
  /// Path prefixes answered with one page of the public directory whatever follows,
  /// e.g. `["/music": "music.html"]`, so that deep links load the app that reads them.
  public var appPages: [String: String] = [:]
  /// PEM certificate and key: the same port then serves https and wss.
  public var tls: TLSConfiguration?
  /// Serve `/echo`, a plain WebSocket echo (for conformance suites and benchmarks).
  public var echo = false
  /// Origins allowed to open a WebSocket besides the page's own host.
  public var allowedOrigins: [String] = []
  /// Host names (without port) the server answers besides loopback names and IP
  /// addresses, against DNS rebinding: a request naming another host is answered 421.
  /// Empty: a server listening on loopback only answers no other name (behind a proxy on
  /// the same machine, list the public name), one listening beyond answers any; `"*"`
  /// answers any.
  public var allowedHosts: [String] = []
  /// Peer addresses `GET /metrics` answers; others get 404. Loopback by default, so a
  /// public port does not publish the server's numbers: list the scraper's address, or
  /// `"*"` on a port only the scraper can reach.
  public var metricsAllowedAddresses = ["127.0.0.1", "::1"]

  /// The most WebSockets open at once; an upgrade beyond is refused with HTTP 503.
  public var maxConnections = 10_000
  /// The most WebSockets open at once from one IP address (behind a proxy, the proxy's
  /// address: raise it there); an upgrade beyond is refused with HTTP 503.
  public var maxConnectionsPerAddress = 256

  /// The largest inbound message in bytes, after reassembly; one more is `too_large`.
  public var maxMessageSize = 65_536
  /// The most bytes of HTTP request headers (cookies included) a request may carry;
  /// a larger one is answered 431.
  public var maxRequestHeaderSize = 16_384
  /// The deepest nesting of arrays and objects an inbound message may have.
  public var maxMessageDepth = 64
  /// How often an idle peer is pinged.
  public var pingInterval: Duration = .seconds(20)
  /// How long a peer may stay silent (not even a pong) before it is closed.
  public var idleTimeout: Duration = .seconds(60)

  /// How often sessions (and the per-tab stores of durable routes) are saved, when the
  /// server has storage: after a `kill -9`, a tab comes back as of the last save, at
  /// most this old (plus the time a save takes). A drain (SIGTERM) saves them all.
  public var sessionSaveInterval: Duration = .seconds(2)
  /// New durable rooms one viewer may create within ``newRoomWindow``: the first change
  /// to a room that is not stored is refused (`rate_limited`) beyond it.
  public var maxNewRoomsPerViewer = 50
  /// New durable rooms the viewers of one peer address may create within
  /// ``newRoomWindow`` (guests get a viewer per socket; behind a proxy, raise it).
  public var maxNewRoomsPerAddress = 500
  /// The window of the new-room quotas.
  public var newRoomWindow: Duration = .seconds(3_600)
  /// Durable rooms unused for this long are deleted from storage (default 30 days);
  /// `nil` keeps them forever, for an app whose rooms are few and made by trusted people.
  /// Any visitor can make a room, so a public server needs an end to them.
  public var roomTimeToLive: Duration? = .seconds(30 * 24 * 3_600)
  /// Where uploads are written while they arrive and kept until their session ends
  /// (created owner-only if missing); `nil` uses a fresh directory under the system's
  /// temporary directory.
  public var uploadDirectory: String?
  /// How long a session whose socket dropped is kept for a resume.
  public var sessionGracePeriod: Duration = .seconds(30)
  /// Render pages that bind topics with their first state: a `GET` of such a page
  /// opens the tab's session and answers the page with every top-level topic's bindings
  /// showing its state; the page's socket resumes that session (docs/FIRST_PAINT.md).
  /// `false` serves the pages as files.
  public var rendersPages = true
  /// How long the session a page's `GET` opened waits for the page's socket.
  public var pageSessionGrace: Duration = .seconds(10)
  /// The most sessions opened by pages that wait for their socket at once; beyond, a
  /// page is still rendered but its session is dropped at once (its runtime joins
  /// afresh), so a flood of requests without sockets holds a bounded number of stores.
  public var maxWaitingPageSessions = 2_000
  /// Parse a page template again when its file changed (development); `false` parses
  /// each once.
  public var reloadsPageTemplates = false
  /// Actions a connection may send at once before `rate_limited`.
  public var actionBurst = 1_000
  /// Actions per second a connection's allowance refills at.
  public var actionsPerSecond = 1_000.0
  /// Topics one session may have joined at once; a join beyond is `forbidden`.
  public var maxTopicsPerSession = 64
  /// Bytes of received messages a connection may have waiting to be handled; a peer
  /// that sends faster than its messages are handled is closed with 1008 beyond it.
  public var maxPendingInboundBytes = 1 << 20
  /// Bytes queued for one socket above which its peer counts as a slow reader: its
  /// topics skip patches to it and send one fresh snapshot once it has drained.
  public var outboundHighWatermark = 256 * 1_024
  /// Bytes queued for one socket above which it is closed with 1008 ("too slow").
  public var outboundHardLimit = 4 * 1_048_576
  /// Error replies within ``misbehaviorWindow`` after which a peer is closed with 1008.
  public var misbehaviorLimit = 100
  /// The window in which ``misbehaviorLimit`` error replies close a peer.
  public var misbehaviorWindow: Duration = .seconds(10)
  /// How long each step of a shutdown may take: sockets closing (1001), then stores
  /// cancelling their effects.
  public var shutdownDeadline: Duration = .seconds(4)
  /// How long stores are given to finish or cancel their effects when ``StatecastServer``
  /// drains on a graceful shutdown of its service group (SIGTERM): `/readyz` answers 503,
  /// every socket is closed with 1012 ("server restarting": clients reconnect with
  /// back-off), sessions are saved, then the stores close within this time.
  public var drainTimeout: Duration = .seconds(4)

  /// Decides who a browser is when it opens its WebSocket, from the upgrade request's
  /// cookies and headers, or refuses it with HTTP 401 or 403; `nil` makes everyone a
  /// guest. It runs on the transport's service thread for every upgrade: it must be
  /// quick and never block (verify a signed cookie or token; never query a database).
  public var authenticate: (@Sendable (UpgradeRequestInfo) -> Authentication)?
  /// Uncommon request headers ``authenticate`` needs to read (common ones such as
  /// `Cookie` and `Authorization` are always readable).
  public var authenticationHeaders: [String] = []
  /// Sets cookies that stores decide on (a sign-in) as `HttpOnly` cookies, when the page
  /// posts the ticket a store showed it to ``CookieHandoff/path``; `nil` serves no such
  /// path.
  public var cookieHandoff: CookieHandoff?

  /// The `Content-Security-Policy` header of every HTTP response; `nil` sends none. The
  /// default allows the page's own scripts, styles, images and connections (WebSockets
  /// to the page's own host and port included), inline styles, and nothing from
  /// elsewhere. Inline scripts run only if they are the public directory's own: when the
  /// policy's `script-src` has no `'unsafe-inline'`, the server adds the SHA-256 hash of
  /// every inline `<script>` of the directory's `.html` files when it starts, so an
  /// injected one is refused by the browser. Responses also carry
  /// `X-Content-Type-Options: nosniff` and `Referrer-Policy: same-origin`.
  public var contentSecurityPolicy: String? = TransportConfiguration.defaultContentSecurityPolicy

  /// Where the server's metrics go (connections, sessions, rooms, members, actions by
  /// route and outcome, replies and error replies, messages by op, closes by code,
  /// frames and bytes out, slow readers, refused upgrades, action and commit latency).
  /// By default into a Prometheus registry of the server's own, served at
  /// `GET /metrics`; see ``MetricsReporting``.
  public var metrics: MetricsReporting = .prometheus(PrometheusCollectorRegistry())

  /// Where the server logs. Each part of the server logs under a label of its own
  /// (``LogSubsystem``), with this logger's level, metadata and metadata provider.
  public var logger = Logger(label: "statecast")

  /// The defaults above; set what differs.
  public init() {}
}

/// The parts of the server that log, each under its own label, so that a deployment
/// can filter or route them apart: `statecast.sessions` (opened, resumed, expired),
/// `statecast.topics` (topics that fail to open), `statecast.stores` (views that cannot
/// be encoded), `statecast.transport` (the transport), `statecast.cluster` (rooms shared
/// with other processes: takeovers, lost leases, unreachable peers).
public enum LogSubsystem: String, Sendable, CaseIterable {
  /// Sessions opened, resumed and expired.
  case sessions
  /// Topics that fail to open.
  case topics
  /// Views that cannot be encoded.
  case stores
  /// Sockets, limits and the transport's own events.
  case transport
  /// Room ownership and relaying between processes.
  case cluster

  /// The label its log lines carry, e.g. `statecast.sessions`.
  public var label: String { "statecast.\(rawValue)" }
}

extension ServerConfiguration {
  /// The logger of one part of the server: a handler that `LoggingSystem` makes for the
  /// subsystem's label, at ``logger``'s level, with its metadata and metadata provider.
  public func logger(for subsystem: LogSubsystem) -> Logger {
    var derived =
      logger.metadataProvider.map { Logger(label: subsystem.label, metadataProvider: $0) }
      ?? Logger(label: subsystem.label)
    derived.logLevel = logger.logLevel
    for (key, value) in logger.handler.metadata { derived[metadataKey: key] = value }
    return derived
  }
}

/// Where a ``StatecastServer`` reports its metrics. It records them through
/// apple/swift-metrics, so any backend works; Prometheus is built in.
///
/// To have the server's metrics and the rest of the app's in one `/metrics`, bootstrap
/// swift-metrics with the registry the server serves:
///
/// ```swift
/// let registry = PrometheusCollectorRegistry()
/// MetricsSystem.bootstrap(PrometheusMetricsFactory(registry: registry))
/// configuration.metrics = .prometheus(registry)
/// ```
public enum MetricsReporting: Sendable {
  /// Recorded into `registry` and served from it at `GET /metrics` in the Prometheus
  /// text format, with whatever else the app records there. The text is rendered off
  /// the service thread every second and after each scrape.
  case prometheus(PrometheusCollectorRegistry)
  /// Recorded through `factory` (for example `MetricsSystem.factory`, whatever backend
  /// the app bootstrapped: StatsD, OpenTelemetry, ...); no `/metrics`.
  case factory(any MetricsFactory)
  /// Nothing recorded, no `/metrics`: for a port that is public when the numbers
  /// should not be, or a benchmark.
  case off
}
