import Foundation
import StatecastJSON
import StatecastStorage

/// A room's rows as read: the snapshot, then every patch after it in order, with no
/// revision missing, make the ``StoredRoom``.
struct RoomRestore {
  var revision: Int64
  var snapshotRevision: Int64
  var snapshot: String
  var lastUsed: Date
  var journal: [(revision: Int64, patch: String)]

  func restore(id: String) throws -> StoredRoom {
    var expected = snapshotRevision
    do {
      var state = try JSON(storedData: Data(snapshot.utf8))
      for entry in journal {
        expected += 1
        guard entry.revision == expected else {
          throw StorageError.corruptRoom(room: id, reason: "journal entry \(expected) is missing")
        }
        try JSONPatch(json: JSON(storedData: Data(entry.patch.utf8))).apply(to: &state)
      }
      guard expected == revision else {
        throw StorageError.corruptRoom(
          room: id, reason: "the journal ends at \(expected), the room is at \(revision)")
      }
      return StoredRoom(id: id, revision: revision, state: state, lastUsed: lastUsed)
    } catch let error as StorageError {
      throw error
    } catch {
      throw StorageError.corruptRoom(room: id, reason: "at revision \(expected): \(error)")
    }
  }
}
