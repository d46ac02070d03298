import PostgresNIO
import StatecastStorage

extension StorageError {
  /// Wraps a database error so that no postgres-nio type reaches the public API; a
  /// `StorageError` passes through unchanged. postgres-nio hides the server's message
  /// from `description` (it may hold data): it is read from the error's fields here.
  init(postgres error: any Error) {
    switch error {
    case let error as StorageError:
      self = error
    case let error as PostgresTransactionError:
      self.init(
        postgres: error.closureError ?? error.commitError ?? error.beginError ?? error.rollbackError ?? error)
    case let error as PSQLError:
      var reason = "\(error.code)"
      if let info = error.serverInfo {
        reason += ": \(info[.sqlState] ?? "") \(info[.message] ?? "")"
      }
      if let underlying = error.underlying { reason += " (\(underlying))" }
      self = .databaseFailed(reason: reason)
    default:
      self = .databaseFailed(reason: "\(error)")
    }
  }
}

/// Runs a database access, turning its errors into ``StorageError``; one that has not
/// finished within ``databaseDeadline`` fails (reads, leases, heartbeats, session saves
/// and notifications, which may all be repeated: none of them is a journal write).
@discardableResult
func databaseAccess<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) async throws -> T {
  do {
    return try await withDeadline(databaseDeadline, body)
  } catch {
    throw StorageError(postgres: error)
  }
}
