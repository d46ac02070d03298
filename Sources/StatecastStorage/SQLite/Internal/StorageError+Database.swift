import GRDB

extension StorageError {
  /// Wraps a database error so that no GRDB type reaches the public API; a
  /// `StorageError` passes through unchanged.
  init(_ error: any Error) {
    if let error = error as? StorageError {
      self = error
    } else if let error = error as? DatabaseError {
      self = .databaseFailed(reason: "\(error.resultCode): \(error.message ?? "\(error)")")
    } else {
      self = .databaseFailed(reason: "\(error)")
    }
  }
}
