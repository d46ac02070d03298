public import StatecastJSON

/// One durable change of a room: the RFC 6902 patch of its state's JSON, and the
/// whole new state, which the storage keeps as a snapshot when one is due.
public struct JournalEntry: Sendable {
  public var room: String
  /// The revision this change creates: the stored revision plus one.
  public var revision: Int64
  public var patch: JSONPatch
  public var state: JSON

  public init(room: String, revision: Int64, patch: JSONPatch, state: JSON) {
    self.room = room
    self.revision = revision
    self.patch = patch
    self.state = state
  }
}
