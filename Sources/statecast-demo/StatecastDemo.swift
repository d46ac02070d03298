import ArgumentParser
import Foundation
import Logging
import Metrics
import Prometheus
import ServiceLifecycle
import StatecastPostgres
import StatecastServer
import StatecastStorage
import UnixSignals

/// statecast-demo: serves Public/ and the example features as topics (see
/// ``demoRoutes(dataDirectory:)``) until SIGTERM or SIGINT.
///
/// Prints `listening on http://HOST:PORT` once it accepts connections, and `stopped`
/// after a graceful shutdown; logs go to standard error.
@main
struct StatecastDemo: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "statecast-demo",
    abstract: "Serves the Statecast demos: static pages and live topics over WebSocket.",
    discussion: """
      Every option can also be set by the environment variable its help names; a flag \
      on the command line wins over the environment. Prints "listening on URL" once \
      connections are accepted and "stopped" after a graceful shutdown (SIGTERM or \
      SIGINT); logs go to standard error.
      """,
    subcommands: [ExportTestCommand.self]
  )

  @OptionGroup(title: "Server") var server: ServerOptions
  @OptionGroup(title: "Limits") var limits: LimitOptions
  @OptionGroup(title: "Logs") var logs: LogOptions

  /// Runs the command as argument-parser's `main` does, but exits with 2 on bad input
  /// (a usage error, as getopt-based tools do) rather than argument-parser's 64.
  static func main() async {
    do {
      var command = try parseAsRoot()
      if let demo = command as? StatecastDemo {
        try await demo.run()
      } else {
        try command.run()  // --help
      }
    } catch {
      guard exitCode(for: error) == .validationFailure else { exit(withError: error) }
      FileHandle.standardError.write(Data((fullMessage(for: error) + "\n").utf8))
      Foundation.exit(2)
    }
  }

  func run() async throws {
    let environment = Environment()
    try logs.bootstrap(environment)
    var configuration = ServerConfiguration()
    // Any /music/... link loads the music page, which reads the path (demo 5).
    configuration.appPages = ["/music": "music.html"]
    let dataDirectory = try server.apply(to: &configuration, environment: environment)
    try limits.apply(to: &configuration, environment: environment)
    // Files being uploaded, and those the uploads demo received, until their tab's session ends.
    configuration.uploadDirectory = dataDirectory.appendingPathComponent("uploads").path
    configuration.logger = Logger(label: "statecast")
    // One registry for the server's metrics and anything else in the process that
    // records through swift-metrics: `/metrics` serves them all.
    let metrics = PrometheusCollectorRegistry()
    MetricsSystem.bootstrap(PrometheusMetricsFactory(registry: metrics))
    configuration.metrics = .prometheus(metrics)

    let scheme = configuration.tls == nil ? "http" : "https"
    let host = configuration.host
    let secret: [UInt8]
    do {
      try OwnerOnlyFiles.prepareDirectory(dataDirectory.path)
      secret = try server.cookieSecret(environment: environment, dataDirectory: dataDirectory)
    } catch let refusal as OwnerOnlyFiles.Refusal {
      FileHandle.standardError.write(Data("statecast-demo: --data: \(refusal)\n".utf8))
      throw ExitCode.failure
    }
    let cookies = ViewerCookie(
      secret: secret, previousSecrets: try server.previousCookieSecrets(environment: environment))
    let secure = configuration.tls != nil
    let cookieName = ViewerCookie.name(secure: secure)
    // Who opens a socket: the viewer of a signed-in visitor's cookie, a guest without
    // one. A cookie that fails verification (altered, expired, of a retired secret), or
    // a name carried twice (one planted beside the real one), makes a guest too, and is
    // cleared, so that its holder can sign in again.
    configuration.authenticate = { request in
      let values = request.cookies(named: cookieName)
      guard !values.isEmpty else { return .guest }
      guard values.count == 1, let viewer = cookies.viewer(from: values[0]) else {
        return .guestClearingCookie(named: cookieName)
      }
      return .viewer(viewer)
    }
    let handoff = CookieHandoff()
    configuration.cookieHandoff = handoff
    // Durable rooms and saved sessions live in one SQLite file in the data directory, or
    // in PostgreSQL, shared by every process given the same database.
    let persistence: Persistence
    var services: [any Service] = []
    if let url = try server.postgresURL(environment: environment) {
      do {
        let postgres = try PostgresCluster(url: url, logger: Logger(label: "statecast.postgres"))
        persistence = .cluster(postgres)
        services.append(postgres)
      } catch {
        FileHandle.standardError.write(Data("statecast-demo: --postgres: \(error)\n".utf8))
        throw ExitCode.failure
      }
    } else {
      do {
        persistence = .sqlite(try SQLiteStorage(directory: dataDirectory))
      } catch {
        FileHandle.standardError.write(
          Data("statecast-demo: cannot open the database in \(dataDirectory.path): \(error)\n".utf8))
        throw ExitCode.failure
      }
    }
    var waitingFor: (@Sendable () async throws -> Void)?
    if let postgres = services.first as? PostgresCluster {
      waitingFor = { try await postgres.waitUntilReady() }
    }
    let server = StatecastServer(
      configuration: configuration,
      routes: demoRoutes(
        dataDirectory: dataDirectory,
        issuer: Account.Issuer(cookies: cookies, handoff: handoff, secure: secure)),
      persistence: persistence,
      // With PostgreSQL the server answers /healthz at once, and takes WebSockets (and
      // /readyz answers 200) once the schema exists and the process receives the
      // cluster's messages.
      waitingFor: waitingFor,
      onServerRunning: { port in say("listening on \(scheme)://\(host):\(port)") }
    )
    // A service group stops its services in reverse order: the server drains (saving
    // sessions, finishing commits) before the database connections close.
    services.append(server)
    // SIGTERM (a container stopping) and SIGINT (Ctrl-C) shut the server down gracefully.
    let group = ServiceGroup(
      services: services,
      gracefulShutdownSignals: [.sigterm, .sigint],
      logger: Logger(label: "statecast-demo")
    )
    do {
      try await group.run()
    } catch {
      Logger(label: "statecast-demo").critical("cannot start", metadata: ["error": "\(error)"])
      throw ExitCode.failure
    }
    say("stopped")
  }
}
