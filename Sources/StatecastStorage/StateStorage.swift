public import Foundation
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
/// let store = Store(initialState: journal.restoredState, reducer: todos, commit: journal.commitFunction)
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

  /// Deletes the rooms whose last change (or creation) is older than `age`; returns
  /// how many. For a room time-to-live.
  func deleteRooms(unusedFor age: Duration) async throws -> Int

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

/// A room as stored: its state now, the revision that state is at, and when it was
/// last changed.
public struct StoredRoom: Sendable, Equatable {
  public var id: String
  public var revision: Int64
  public var state: JSON
  public var lastUsed: Date

  public init(id: String, revision: Int64, state: JSON, lastUsed: Date) {
    self.id = id
    self.revision = revision
    self.state = state
    self.lastUsed = lastUsed
  }
}

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

/// Writes and journal entries made since the storage was opened. `commits` counts
/// transactions (each one fsync), `entries` the changes they carried: with group
/// commit, many entries share a commit.
public struct StorageCounters: Sendable, Equatable {
  public var commits: Int
  public var entries: Int

  public init(commits: Int = 0, entries: Int = 0) {
    self.commits = commits
    self.entries = entries
  }
}
