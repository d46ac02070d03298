public import StatecastJSON

/// One durable change of a room: the RFC 6902 patch of its state's JSON, and the
/// whole new state, which the storage keeps as a snapshot when one is due.
public struct JournalEntry: Sendable {
  public var room: String
  /// The revision this change creates: the stored revision plus one.
  public var revision: Int64
  public var patch: JSONPatch
  public var state: JSON
  /// The idempotency keys of the client actions this change applies. Stored in the same
  /// write as the change, and kept for the room's next ``keptKeyRevisions`` revisions:
  /// whoever opens the room within them (a restarted server, the next owner in a
  /// cluster) answers a retry of those actions without applying them again.
  public var idempotencyKeys: [String]

  /// How many revisions an action's idempotency key is remembered for after it.
  public static let keptKeyRevisions: Int64 = 1_024

  public init(room: String, revision: Int64, patch: JSONPatch, state: JSON, idempotencyKeys: [String] = []) {
    self.room = room
    self.revision = revision
    self.patch = patch
    self.state = state
    self.idempotencyKeys = idempotencyKeys
  }
}
