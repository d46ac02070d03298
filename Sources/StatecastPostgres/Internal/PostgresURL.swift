import Foundation
import PostgresNIO

/// A parsed `postgres://user[:password]@host[:port]/database` URL.
///
/// Connections are not encrypted (TLS disabled): the cluster is meant to reach its
/// database over loopback or a private network. Percent-escapes in the user and the
/// password are decoded.
struct PostgresURL: Sendable {
  var host: String
  var port: Int
  var username: String
  var password: String?
  var database: String

  init(_ text: String) throws {
    func invalid(_ reason: String) -> PostgresClusterError { .invalidURL(text, reason: reason) }
    guard let components = URLComponents(string: text) else { throw invalid("not a URL") }
    guard components.scheme == "postgres" || components.scheme == "postgresql" else {
      throw invalid("the scheme must be postgres:// or postgresql://")
    }
    guard let host = components.host, !host.isEmpty else { throw invalid("no host") }
    guard let username = components.user, !username.isEmpty else { throw invalid("no user") }
    let database = String(components.path.drop { $0 == "/" })
    guard !database.isEmpty, !database.contains("/") else { throw invalid("no database (a path /name)") }
    if let port = components.port, !(1...65_535).contains(port) { throw invalid("port out of range") }
    self.host = host
    self.port = components.port ?? 5432
    self.username = username
    self.password = components.password
    self.database = database
  }

  /// The pool's configuration, holding at most `maximumConnections`.
  func clientConfiguration(maximumConnections: Int) -> PostgresClient.Configuration {
    var configuration = PostgresClient.Configuration(
      host: host, port: port, username: username, password: password, database: database, tls: .disable)
    configuration.options.maximumConnections = maximumConnections
    configuration.options.connectTimeout = .seconds(5)
    return configuration
  }

  /// The configuration of a single connection (the listener's).
  var connectionConfiguration: PostgresConnection.Configuration {
    var configuration = PostgresConnection.Configuration(
      host: host, port: port, username: username, password: password, database: database, tls: .disable)
    configuration.options.connectTimeout = .seconds(5)
    return configuration
  }
}
