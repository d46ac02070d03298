/// Everything a ``WebSocketTransport`` needs to serve one port: where to listen, which
/// files to serve, TLS, and the limits that keep every connection bounded.
///
/// The defaults are the wire protocol's (PROTOCOL.md, Transport): 64 KiB messages, a
/// ping every 20 s, a 60 s idle timeout, only same-origin browsers.
///
///     var configuration = TransportConfiguration(port: 0, publicDirectory: "Public")
///     configuration.appPages = ["/music": "music.html"]   // deep links load the page
///     let transport = WebSocketTransport(configuration: configuration, handler: server)
///     let port = try transport.start()
package struct TransportConfiguration: Sendable {
  /// The address to listen on: an IPv4 or IPv6 address, or `0.0.0.0` / `::` for all.
  package var host = "127.0.0.1"
  /// The TCP port; 0 asks the system for a free one (``WebSocketTransport/start()``
  /// returns it).
  package var port = 8080
  /// The directory whose files are served over HTTP (`/` answers `index.html`). `nil`
  /// serves no files: every path except `/healthz` and the WebSocket answers 404.
  package var publicDirectory: String?
  /// Path prefixes answered with one file of ``publicDirectory``, so that deep links into
  /// a single-page app load the page: `["/music": "music.html"]` answers `/music` and
  /// every `/music/...` path that is not a file with `music.html`. A prefix `/` makes
  /// its file the answer for every path that is not a file.
  package var appPages: [String: String] = [:]
  /// Files served from memory at their exact paths, before (and whatever) the public
  /// directory holds there, with or without a public directory.
  package var embeddedFiles: [EmbeddedFile] = []
  /// A certificate and key that make the port https and wss; `nil` serves plain http.
  package var tls: TLSConfiguration?
  /// The largest inbound message at `/ws`, in bytes, after reassembly of fragments:
  /// that many is accepted, one more is refused (the handler is told, then 1009).
  package var maxMessageSize = 65_536
  /// How long a connection may be silent before the server pings it.
  package var pingInterval: Duration = .seconds(20)
  /// How long after its last pong (or its upgrade) a connection that answers no ping is
  /// closed. Must be longer than ``pingInterval``. Whole seconds are used.
  package var idleTimeout: Duration = .seconds(60)
  /// Origins accepted besides the page's own (an upgrade whose `Origin` names the same
  /// host and port as its `Host` header is always accepted; one without `Origin` too).
  ///
  /// Each entry is a full origin (`https://app.example.com`, default ports implied by
  /// the scheme), a `host:port` pair (`localhost:5173`), or a bare host that matches it
  /// on any port (`app.example.com`). Hosts compare case-insensitively.
  package var allowedOrigins: [String] = []
  /// Also serve `/echo`: every text and binary message is sent straight back. For
  /// conformance suites (Autobahn|Testsuite) and as the latency floor of the benchmark.
  package var echo = false
  /// The largest message `/echo` reassembles and sends back, in bytes (Autobahn's
  /// largest case sends 16 MiB).
  package var echoMaxMessageSize = 16 * 1_048_576
  /// Bytes queued for one connection above which `send` answers `.congested`.
  package var outboundHighWatermark = 256 * 1_024
  /// Bytes queued for one connection that it may not exceed: the frame that would take
  /// a non-empty backlog above this closes the connection with 1008 ("too slow") and is
  /// dropped with the backlog. A single frame larger than the limit is still sent when
  /// the backlog is empty.
  package var outboundHardLimit = 4 * 1_048_576
  /// The process's open-files limit is raised to at least this many (as far as the
  /// system allows) before listening, so that 10,000+ connections fit.
  package var fileDescriptorLimit = 65_536
  /// The largest request header section, in bytes (the values of the headers, as
  /// libwebsockets keeps them): a larger request is answered 431 and closed. Requests
  /// more than twice as large are dropped without a status, since libwebsockets cannot
  /// hold them at all.
  package var maxRequestHeaderSize = 16_384
  /// The `Server` header of HTTP responses.
  package var serverName = "statecast"
  /// Decides, from its headers, whether an upgrade at `/ws` may open a WebSocket and
  /// with which identity; `nil` accepts every upgrade that passes the origin check (the
  /// handler then gets a `nil` identity). Runs on the service thread: quick and
  /// non-blocking only (see ``UpgradeCheck``).
  package var upgradeCheck: UpgradeCheck?
  /// Names of request headers libwebsockets does not know that ``upgradeCheck`` should
  /// see in ``UpgradeHeaders/fields`` (headers lws knows, such as `Cookie` and
  /// `Authorization`, are always there).
  package var upgradeHeaderNames: [String] = []
  /// The most WebSocket connections (both endpoints) open at once; an upgrade beyond it
  /// is refused with HTTP 503.
  package var maxConnections = 10_000
  /// The most WebSocket connections open at once from one peer IP address; an upgrade
  /// beyond it is refused with HTTP 503. Behind a proxy every client shares the
  /// proxy's address: raise it there.
  package var maxConnectionsPerAddress = 256
  /// Headers added to every HTTP response the server builds with libwebsockets (files,
  /// `/healthz`, `/readyz`, `/metrics`, app pages, 304s), as `(name, value)` pairs.
  /// The defaults stop MIME sniffing, keep the referrer on this site, and set a content
  /// security policy that lets the bundled pages run (their own and inline scripts and
  /// styles, WebSockets) and nothing from other origins.
  package var responseHeaders: [(name: String, value: String)] = [
    ("X-Content-Type-Options", "nosniff"),
    ("Referrer-Policy", "same-origin"),
    ("Content-Security-Policy", TransportConfiguration.defaultContentSecurityPolicy),
  ]
  /// The default `Content-Security-Policy`: scripts, styles, images and connections from
  /// the page's own origin (`'self'` covers WebSockets to the same host and port in
  /// CSP Level 3 browsers), inline styles, no plugins, no framing by other sites. Inline
  /// scripts are allowed by hash, added by the server at start (the pages' own).
  package static let defaultContentSecurityPolicy =
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
    + "connect-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'self'; "
    + "frame-ancestors 'self'"
  /// Host names (without port) the server answers besides loopback names and address
  /// literals: the defence against DNS rebinding (see ``HostPolicy``). Empty: a server
  /// listening on loopback only answers no other name, one listening beyond answers any;
  /// `"*"` answers any.
  package var allowedHosts: [String] = []
  /// Peer addresses `GET /metrics` answers (others get 404): loopback by default, so
  /// that a public port does not publish the server's numbers; `"*"` for any.
  package var metricsAllowedAddresses = ["127.0.0.1", "::1"]
  /// Paths answered by a function for a same-origin `POST` (see ``PostRoute``), such as
  /// the handoff of a sign-in cookie.
  package var postRoutes: [String: PostRoute] = [:]
  /// Paths whose `GET` is answered by ``pageRoute`` (pages rendered with their first
  /// state), ahead of the public directory; app pages go to it too when it is set.
  package var pagePaths: Set<String> = []
  /// Renders the pages of ``pagePaths`` and app pages; `nil` serves them as files.
  package var pageRoute: PageRoute?
  /// Serves `GET /metrics` with the body last published to it; `nil` answers 404 there.
  package var metrics: MetricsEndpoint?

  package init(host: String = "127.0.0.1", port: Int = 8080, publicDirectory: String? = nil) {
    self.host = host
    self.port = port
    self.publicDirectory = publicDirectory
  }

  /// Checks ranges that libwebsockets would otherwise reject at start or misbehave with.
  func validated() throws -> Self {
    guard (0...65_535).contains(port) else {
      throw TransportError.invalidConfiguration("port \(port) is not in 0...65535")
    }
    guard maxMessageSize > 0, echoMaxMessageSize > 0 else {
      throw TransportError.invalidConfiguration("message size limits must be positive")
    }
    guard outboundHighWatermark > 0, outboundHardLimit >= outboundHighWatermark else {
      throw TransportError.invalidConfiguration(
        "outboundHardLimit (\(outboundHardLimit)) must be at least outboundHighWatermark (\(outboundHighWatermark)) > 0"
      )
    }
    guard pingSeconds >= 1, idleSeconds > pingSeconds, idleSeconds <= Int(UInt16.max) else {
      throw TransportError.invalidConfiguration(
        "need 1 s <= pingInterval < idleTimeout <= 65535 s (got \(pingInterval), \(idleTimeout))")
    }
    guard maxConnections > 0, maxConnectionsPerAddress > 0 else {
      throw TransportError.invalidConfiguration("connection limits must be positive")
    }
    guard (1_024...1_048_576).contains(maxRequestHeaderSize) else {
      throw TransportError.invalidConfiguration(
        "maxRequestHeaderSize \(maxRequestHeaderSize) is not in 1024...1048576")
    }
    for (prefix, file) in appPages {
      guard prefix.hasPrefix("/"), !file.isEmpty, !file.contains("..") else {
        throw TransportError.invalidConfiguration(
          "app page \(prefix) -> \(file) must map /prefix to a file name")
      }
    }
    return self
  }

  /// ``pingInterval`` in whole seconds, rounded up (libwebsockets counts seconds).
  var pingSeconds: Int { Self.wholeSeconds(pingInterval) }
  /// ``idleTimeout`` in whole seconds, rounded up.
  var idleSeconds: Int { Self.wholeSeconds(idleTimeout) }

  private static func wholeSeconds(_ duration: Duration) -> Int {
    let (seconds, attoseconds) = duration.components
    return Int(seconds) + (attoseconds > 0 ? 1 : 0)
  }
}
