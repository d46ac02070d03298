import ArgumentParser
import Foundation
import StatecastServer
import StatecastStorage

/// Where the demo listens and what it serves: the flags of `statecast-demo --help`'s
/// "Server" section, each with its `STATECAST_…` environment variable.
struct ServerOptions: ParsableArguments {
  @Option(help: "Address to listen on; 0.0.0.0 for every interface (default 127.0.0.1; env STATECAST_HOST).")
  var host: String?

  @Option(help: "Port; 0 picks a free one (default 8080; env STATECAST_PORT).")
  var port: Int?

  @Option(
    name: .customLong("public"),
    help: ArgumentHelp("Static files and pages (default Public; env STATECAST_PUBLIC).", valueName: "dir"))
  var publicDirectory: String?

  @Option(
    name: .customLong("data"),
    help: ArgumentHelp(
      "Where the demos save data, a folder of this user's alone, mode 0700 (default $STATE_DIRECTORY, else $XDG_STATE_HOME/statecast-demo, else ~/.local/state/statecast-demo; env STATECAST_DATA).",
      valueName: "dir"))
  var dataDirectory: String?

  @Option(
    help: ArgumentHelp("PEM certificate: serve https and wss (env STATECAST_TLS_CERT).", valueName: "file"))
  var tlsCert: String?

  @Option(help: ArgumentHelp("PEM private key of --tls-cert (env STATECAST_TLS_KEY).", valueName: "file"))
  var tlsKey: String?

  @Option(
    help: ArgumentHelp(
      "Secret that signs sign-in cookies, 32 characters or more; every instance sharing users needs the same (default: generated once into --data; env STATECAST_SECRET).",
      valueName: "text"))
  var secret: String?

  /// The cookie secret: `--secret`, else `STATECAST_SECRET`, else the one generated into
  /// the data directory on first start (kept, so that sign-ins survive a restart).
  ///
  /// The file is created with mode 0600 and `O_EXCL|O_NOFOLLOW`; an existing one is used
  /// only if this user owns it and no other can write it: whoever can write the secret
  /// can sign any identity.
  func cookieSecret(environment: Environment, dataDirectory: URL) throws -> [UInt8] {
    if let text: String = try environment.value(
      secret, "STATECAST_SECRET", for: "--secret", must: ("32 characters or more", { $0.utf8.count >= 32 }))
    {
      return Array(text.utf8)
    }
    let file = dataDirectory.appendingPathComponent("secret").path
    try OwnerOnlyFiles.prepareDirectory(dataDirectory.path)
    let generated = ViewerCookie.generateSecret()
    if try OwnerOnlyFiles.create(file, contents: generated) { return generated }
    let stored = try OwnerOnlyFiles.read(file)
    guard stored.count >= 32 else {
      throw OwnerOnlyFiles.Refusal(
        path: file, reason: "shorter than 32 bytes: delete it to generate a new one")
    }
    return stored
  }

  @Option(
    help: ArgumentHelp(
      "A retired --secret whose sign-ins are still accepted until they expire (30 days); repeatable (env STATECAST_PREVIOUS_SECRET, comma-separated).",
      valueName: "text"))
  var previousSecret: [String] = []

  /// The retired secrets: rotating the secret signs new cookies with the new one and
  /// keeps these readable, so nobody is signed out; removing one revokes its cookies.
  func previousCookieSecrets(environment: Environment) throws -> [[UInt8]] {
    let secrets = environment.values(previousSecret, "STATECAST_PREVIOUS_SECRET")
    for secret in secrets where secret.utf8.count < 32 {
      throw ValidationError("--previous-secret must be 32 characters or more")
    }
    return secrets.map { Array($0.utf8) }
  }

  @Option(
    help: ArgumentHelp(
      "Share sessions and durable rooms with every process given the same PostgreSQL database, instead of SQLite in --data: postgres://user:password@host:5432/database; needs --secret (env STATECAST_POSTGRES).",
      valueName: "url"))
  var postgres: String?

  /// The PostgreSQL URL of a clustered deployment, or `nil` for the embedded SQLite.
  /// Every process must sign cookies alike, so a secret generated into one process's
  /// data directory will not do.
  func postgresURL(environment: Environment) throws -> String? {
    guard
      let url: String = try environment.value(
        postgres, "STATECAST_POSTGRES", for: "--postgres",
        must: (
          "a postgres:// or postgresql:// URL",
          { $0.hasPrefix("postgres://") || $0.hasPrefix("postgresql://") }
        ))
    else { return nil }
    let secret: String? = try environment.value(secret, "STATECAST_SECRET", for: "--secret")
    guard secret != nil else {
      throw ValidationError(
        "--postgres needs --secret (or STATECAST_SECRET), the same on every process, so that a sign-in made on one is accepted by all"
      )
    }
    return url
  }

  @Option(
    help: ArgumentHelp(
      "Also accept WebSockets from this origin; repeatable (env STATECAST_ALLOW_ORIGIN, comma-separated).",
      valueName: "origin"))
  var allowOrigin: [String] = []

  @Option(
    help: ArgumentHelp(
      "Also answer requests naming this host (against DNS rebinding; loopback names and IP addresses always work); repeatable (env STATECAST_ALLOW_HOST, comma-separated).",
      valueName: "name"))
  var allowHost: [String] = []

  @Option(
    help: ArgumentHelp(
      "Also answer GET /metrics from this peer address, * for any (default 127.0.0.1 and ::1); repeatable (env STATECAST_METRICS_ALLOW, comma-separated).",
      valueName: "address"))
  var metricsAllow: [String] = []

  @Flag(
    inversion: .prefixedNo, help: "Serve /echo, a plain WebSocket echo (default off; env STATECAST_ECHO).")
  var echo: Bool?

  @Flag(
    inversion: .prefixedNo,
    help:
      "Parse a page again when its file changes, for development (default off; env STATECAST_RELOAD_PAGES).")
  var reloadPages: Bool?

  @Flag(
    inversion: .prefixedNo,
    help: "Render pages that bind topics with their first state (default on; env STATECAST_RENDER_PAGES).")
  var renderPages: Bool?

  mutating func validate() throws {
    var scratch = ServerConfiguration()
    _ = try apply(to: &scratch, environment: Environment())
    _ = try postgresURL(environment: Environment())
    _ = try previousCookieSecrets(environment: Environment())
  }

  /// Sets the configuration's fields from the flags, else the environment; returns the
  /// data directory.
  func apply(to server: inout ServerConfiguration, environment: Environment) throws -> URL {
    server.host = try environment.value(host, "STATECAST_HOST", for: "--host") ?? server.host
    server.port =
      try environment.value(
        port, "STATECAST_PORT", for: "--port", must: ("between 0 and 65535", { (0...65_535).contains($0) }))
      ?? server.port
    server.publicDirectory =
      try environment.value(publicDirectory, "STATECAST_PUBLIC", for: "--public") ?? server.publicDirectory
    server.allowedOrigins = environment.values(allowOrigin, "STATECAST_ALLOW_ORIGIN")
    server.allowedHosts = environment.values(allowHost, "STATECAST_ALLOW_HOST")
    server.metricsAllowedAddresses += environment.values(metricsAllow, "STATECAST_METRICS_ALLOW")
    server.echo = try environment.switchValue(echo, "STATECAST_ECHO", for: "--echo") ?? server.echo
    server.reloadsPageTemplates =
      try environment.switchValue(reloadPages, "STATECAST_RELOAD_PAGES", for: "--reload-pages")
      ?? server.reloadsPageTemplates
    server.rendersPages =
      try environment.switchValue(renderPages, "STATECAST_RENDER_PAGES", for: "--render-pages")
      ?? server.rendersPages

    let certificate: String? = try environment.value(tlsCert, "STATECAST_TLS_CERT", for: "--tls-cert")
    let key: String? = try environment.value(tlsKey, "STATECAST_TLS_KEY", for: "--tls-key")
    switch (certificate, key) {
    case (nil, nil):
      server.tls = nil
    case let (certificate?, key?):
      for (flag, path) in [("--tls-cert", certificate), ("--tls-key", key)]
      where !FileManager.default.isReadableFile(atPath: path) {
        throw ValidationError("\(flag): cannot read \(path)")
      }
      server.tls = TLSConfiguration(certificatePath: certificate, privateKeyPath: key)
    default:
      throw ValidationError("--tls-cert and --tls-key go together")
    }

    let data: String? = try environment.value(dataDirectory, "STATECAST_DATA", for: "--data")
    return data.map { URL(fileURLWithPath: $0) } ?? Self.defaultDataDirectory(environment)
  }

  /// Where data lives when no folder is named: the service's own state directory
  /// (systemd's `StateDirectory=`), else the user's (XDG), never the shared temporary
  /// directory, where another account could create the folder first.
  static func defaultDataDirectory(_ environment: Environment) -> URL {
    if let state = environment.variables["STATE_DIRECTORY"], !state.isEmpty {
      // systemd lists several directories separated by ":" when several are configured.
      return URL(fileURLWithPath: String(state.split(separator: ":")[0]))
    }
    if let xdg = environment.variables["XDG_STATE_HOME"], xdg.hasPrefix("/") {
      return URL(fileURLWithPath: xdg).appendingPathComponent("statecast-demo")
    }
    let home = environment.variables["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
    return URL(fileURLWithPath: home).appendingPathComponent(".local/state/statecast-demo")
  }
}
