/// What can go wrong setting up a ``PostgresCluster`` before it touches the database.
public enum PostgresClusterError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The connection URL is not `postgres://user[:password]@host[:port]/database`.
  case invalidURL(String, reason: String)

  public var description: String {
    switch self {
    case .invalidURL(_, let reason):
      // The URL itself may hold a password: it is not repeated.
      "invalid PostgreSQL URL: \(reason)"
    }
  }
}
