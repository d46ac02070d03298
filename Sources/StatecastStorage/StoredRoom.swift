public import Foundation
public import StatecastJSON

/// A room as stored: its state now, the revision that state is at, when it was last
/// changed, and the idempotency keys of the actions its latest changes applied.
public struct StoredRoom: Sendable, Equatable {
  public var id: String
  public var revision: Int64
  public var state: JSON
  public var lastUsed: Date
  /// The keys journaled with the room's last ``JournalEntry/keptKeyRevisions``
  /// revisions, oldest first.
  public var appliedKeys: [String]

  public init(id: String, revision: Int64, state: JSON, lastUsed: Date, appliedKeys: [String] = []) {
    self.id = id
    self.revision = revision
    self.state = state
    self.lastUsed = lastUsed
    self.appliedKeys = appliedKeys
  }
}
