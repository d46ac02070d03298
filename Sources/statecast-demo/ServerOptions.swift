import ArgumentParser
import Foundation
import StatecastServer

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
      "Where the demos save data (default $TMPDIR/statecast-demo; env STATECAST_DATA).", valueName: "dir"))
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
  func cookieSecret(environment: Environment, dataDirectory: URL) throws -> [UInt8] {
    if let text: String = try environment.value(
      secret, "STATECAST_SECRET", for: "--secret", must: ("32 characters or more", { $0.utf8.count >= 32 }))
    {
      return Array(text.utf8)
    }
    let file = dataDirectory.appendingPathComponent("secret")
    if let stored = try? Data(contentsOf: file), stored.count >= 32 { return Array(stored) }
    try FileManager.default.createDirectory(at: dataDirectory, withIntermediateDirectories: true)
    let generated = ViewerCookie.generateSecret()
    FileManager.default.createFile(
      atPath: file.path, contents: Data(generated), attributes: [.posixPermissions: 0o600])
    return generated
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

  @Flag(
    inversion: .prefixedNo, help: "Serve /echo, a plain WebSocket echo (default off; env STATECAST_ECHO).")
  var echo: Bool?

  mutating func validate() throws {
    var scratch = ServerConfiguration()
    _ = try apply(to: &scratch, environment: Environment())
    _ = try postgresURL(environment: Environment())
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
    server.echo = try environment.switchValue(echo, "STATECAST_ECHO", for: "--echo") ?? server.echo

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
    return data.map { URL(fileURLWithPath: $0) }
      ?? URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("statecast-demo")
  }
}
