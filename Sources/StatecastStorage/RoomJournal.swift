public import Statecast
import StatecastJSON
import Synchronization

/// Makes one durable store's changes durable in a ``StateStorage``, and restores its
/// state: the bridge between a `Store`'s commit function and a stored room.
///
/// Each commit is journaled as the RFC 6902 patch of the state's JSON (the `Codable`
/// `State` encoded with `JSONValueEncoder`), so no action needs to be `Codable` and no
/// effect is ever replayed: a restore loads the last snapshot, applies the patches
/// after it, and decodes the `State`. The state is encoded through a
/// `JSONViewTracker`, so a change to a few rows of a large state costs what those
/// rows cost. A commit that changes nothing in the JSON writes nothing, and a new room
/// is stored only at its first change.
///
/// ```swift
/// let journal = try await RoomJournal.open(room: "todos/team-42", in: storage, initialState: Todos())
/// let store = Store(initialState: journal.restoredState, reducer: todos, commit: journal.commit)
/// try await store.send(.client(.add(title: "Milk"))).committed()   // durable now
/// ```
///
/// The store calls ``commit(_:)`` one change at a time, in order; one journal serves
/// one store.
public actor RoomJournal<State: Codable & Sendable> {
  /// The room's id in the storage.
  public nonisolated let room: String
  /// The state read back at open (or the initial state of a new room).
  public nonisolated let restoredState: State
  /// The idempotency keys journaled with the room's latest changes, oldest first: the
  /// actions a retry must not apply again (see ``Commit/idempotencyKeys``).
  public nonisolated let restoredKeys: [String]
  private let storage: any StateStorage
  private let committedRevision: Atomic<Int64>
  private var tracker = JSONViewTracker()
  /// The stored JSON while it differs from the restored state encoded again (a field
  /// added with a default, say): the next patch must apply to what is stored.
  private var storedBase: JSON?
  /// The room's revision 0, while the room is not stored yet: written just before its
  /// first change.
  private var unstoredRoom: JSON?
  private let stored: Atomic<Bool>

  /// The room's revision: one more for every stored change; it continues across
  /// restarts. Readable from an observer, which runs after the commit.
  public nonisolated var revision: Int64 { committedRevision.load(ordering: .acquiring) }

  /// Whether the storage holds the room: `false` for a new room until its first change.
  public nonisolated var isStored: Bool { stored.load(ordering: .acquiring) }

  /// - Parameter isStored: `false` for a new room that the storage does not hold yet
  ///   (`room` is then its revision 0, stored at the first change).
  init(room: StoredRoom, state: State, storage: any StateStorage, isStored: Bool = true) throws {
    self.room = room.id
    self.restoredState = state
    self.restoredKeys = room.appliedKeys
    self.storage = storage
    self.committedRevision = Atomic(room.revision)
    _ = try tracker.update(to: state)
    storedBase = tracker.current == room.state ? nil : room.state
    unstoredRoom = isStored ? nil : room.state
    stored = Atomic(isStored)
  }

  /// Makes `commit.state` durable: appends the patch from the stored state, with the
  /// commit's idempotency keys, and returns once the storage has it. Pass it as the
  /// store's commit function.
  ///
  /// If the append fails, the journal is back where it was (the store rolls back
  /// too) and the error is rethrown.
  public func commit(_ commit: Commit<State>) async throws {
    var patch = try tracker.update(to: commit.state)
    if let storedBase { patch = JSONPatch.diff(from: storedBase, to: tracker.current) }
    // A change of nothing writes nothing, its keys included: retrying such an action
    // changes nothing either.
    guard !patch.isEmpty else { return }
    let next = revision + 1
    do {
      if let unstoredRoom {
        // Another process may have stored the room meanwhile: the append below then
        // finds it past revision 0 and fails with a revision conflict, as it should.
        _ = try await storage.createRoom(room, state: unstoredRoom)
        self.unstoredRoom = nil
        stored.store(true, ordering: .releasing)
      }
      try await storage.append(
        JournalEntry(
          room: room, revision: next, patch: patch, state: tracker.current,
          idempotencyKeys: commit.idempotencyKeys))
    } catch {
      tracker.reset()
      _ = try? tracker.update(to: commit.previous)
      throw error
    }
    storedBase = nil
    committedRevision.store(next, ordering: .releasing)
  }
}
