package import Foundation
import StatecastJSON

/// A room's rows as read, in any engine: copied out of the read transaction (GRDB's
/// rows stay on their connection) and turned into a ``StoredRoom`` after it.
package struct StoredRows: Sendable {
  package var revision: Int64
  package var snapshotRevision: Int64
  package var snapshot: Data
  package var lastUsed: Double
  package var journal: [(revision: Int64, patch: Data)]
  package var appliedKeys: [String]

  package init(
    revision: Int64, snapshotRevision: Int64, snapshot: Data, lastUsed: Double,
    journal: [(revision: Int64, patch: Data)], appliedKeys: [String] = []
  ) {
    (self.revision, self.snapshotRevision, self.snapshot, self.lastUsed, self.journal) = (
      revision, snapshotRevision, snapshot, lastUsed, journal
    )
    self.appliedKeys = appliedKeys
  }

  /// The snapshot, then every patch after it in order, with no revision missing.
  package func restore(id: String) throws -> StoredRoom {
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
        id: id, revision: revision, state: state, lastUsed: Date(timeIntervalSince1970: lastUsed),
        appliedKeys: appliedKeys)
    } catch let error as StorageError {
      throw error
    } catch {
      throw StorageError.corruptRoom(room: id, reason: "at revision \(expected): \(error)")
    }
  }
}
