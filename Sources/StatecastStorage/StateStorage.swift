public import StatecastJSON

/// Where durable stores keep their state: rooms (a journal of state changes with
/// snapshots) and sessions (the topics of a tab, kept across a deploy).
///
/// ``SQLiteStorage`` is the embedded default: one file, one process. An engine shared
/// by several processes (PostgreSQL) implements the same requirements; what makes that
/// possible is written into the contract:
/// - every ``append(_:)`` names the revision it creates, and fails with
///   ``StorageError/revisionConflict(room:expected:found:)`` unless the room is exactly
///   one revision behind, so a writer that lost its lease on a room can never
///   overwrite a newer writer's changes;
/// - an append returns only once its change is durable, and appends that arrive
///   while a write is in flight share the next one (group commit);
/// - rooms and sessions are plain JSON values, so any engine stores them as text.
///
/// ```swift
/// let storage = try SQLiteStorage(directory: dataDirectory)
/// let journal = try await RoomJournal.open(room: "todos/team-42", in: storage, initialState: Todos())
/// let store = Store(initialState: journal.restoredState, reducer: todos, commit: journal.commit)
/// ```
public protocol StateStorage: Sendable {
  /// The room's latest state (its snapshot with the journal after it applied), or
  /// `nil` if no such room is stored. Throws ``StorageError/corruptRoom(room:reason:)``
  /// if the stored data does not fit together.
  func loadRoom(_ id: String) async throws -> StoredRoom?

  /// Stores a new room at revision 0 with `state` as its snapshot. If the room exists
  /// already (another process was first), returns it unchanged.
  func createRoom(_ id: String, state: JSON) async throws -> StoredRoom

  /// Writes one change durably, sharing the write with every append that arrives
  /// while another is in flight. Returns once the change survives a crash.
  func append(_ entry: JournalEntry) async throws

  /// Replaces a room's state with `state`, continuing its revisions; the replaced
  /// snapshot is archived, not lost. For a deliberate fresh start (a schema change).
  func replaceRoom(_ id: String, state: JSON) async throws -> StoredRoom

  /// Deletes the rooms whose last use (a change, a creation, or ``markRoomsUsed(_:)``)
  /// is older than `age`; returns how many. For a room time-to-live.
  func deleteRooms(unusedFor age: Duration) async throws -> Int
  /// Records that the rooms `ids` are in use now: open in a server, perhaps only read.
  /// A server calls it before ``deleteRooms(unusedFor:)``, so that a room people are
  /// looking at is not deleted because nobody changed it lately. Ids of rooms that are
  /// not stored are ignored.
  func markRoomsUsed(_ ids: [String]) async throws

  /// Saves sessions in one write, each replacing its earlier save.
  func saveSessions(_ sessions: [StoredSession]) async throws

  /// The session saved under `id`, or `nil`.
  func loadSession(_ id: String) async throws -> StoredSession?

  /// Forgets a session (its tab closed or its grace period ended).
  func deleteSession(_ id: String) async throws

  /// Deletes the sessions last saved longer than `age` ago; returns how many.
  func deleteSessions(unusedFor age: Duration) async throws -> Int

  /// How many writes and journal entries the storage has made, for benchmarks.
  var counters: StorageCounters { get }
}
