import Foundation
import StatecastJSON

/// A room's rows as read, copied out of the read transaction (GRDB's rows stay on
/// their connection) and turned into a ``StoredRoom`` after it.
struct StoredRows: Sendable {
  var revision: Int64
  var snapshotRevision: Int64
  var snapshot: Data
  var lastUsed: Double
  var journal: [(revision: Int64, patch: Data)]

  /// The snapshot, then every patch after it in order, with no revision missing.
  func restore(id: String) throws -> StoredRoom {
    var expected = snapshotRevision
    do {
      var state = try JSON(storedData: snapshot)
      for entry in journal {
        expected += 1
        guard entry.revision == expected else {
          throw StorageError.corruptRoom(room: id, reason: "journal entry \(expected) is missing")
        }
        try JSONPatch(json: JSON(storedData: entry.patch)).apply(to: &state)
      }
      guard expected == revision else {
        throw StorageError.corruptRoom(
          room: id, reason: "the journal ends at \(expected), the room is at \(revision)")
      }
      return StoredRoom(
        id: id, revision: revision, state: state, lastUsed: Date(timeIntervalSince1970: lastUsed))
    } catch let error as StorageError {
      throw error
    } catch {
      throw StorageError.corruptRoom(room: id, reason: "at revision \(expected): \(error)")
    }
  }
}
