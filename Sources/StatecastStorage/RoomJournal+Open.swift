import Foundation
import StatecastJSON

extension RoomJournal {
  /// Opens a room's journal: restores its stored state, or starts a new room from
  /// `initialState`. A new room is stored at its first change, not here: joining a name
  /// writes nothing, so a visitor who joins thousands of names fills no disk.
  ///
  /// Throws ``StorageError/undecodableState(room:revision:error:)`` when the stored
  /// state no longer decodes as `State` (the type changed): nothing is overwritten,
  /// and the caller chooses to refuse the room or to start it afresh with
  /// ``replacing(room:in:with:)``.
  ///
  /// ```swift
  /// let journal = try await RoomJournal.open(room: "todos/team-42", in: storage, initialState: Todos())
  /// ```
  public static func open(
    room id: String,
    in storage: any StateStorage,
    initialState: @autoclosure () -> State
  ) async throws -> RoomJournal {
    let stored: StoredRoom
    let isStored: Bool
    if let existing = try await storage.loadRoom(id) {
      (stored, isStored) = (existing, true)
    } else {
      let state = try JSONValueEncoder().encode(initialState())
      (stored, isStored) = (StoredRoom(id: id, revision: 0, state: state, lastUsed: Date()), false)
    }
    let state: State
    do {
      state = try JSONValueDecoder().decode(State.self, from: stored.state)
    } catch {
      throw StorageError.undecodableState(room: id, revision: stored.revision, error: error)
    }
    return try RoomJournal(room: stored, state: state, storage: storage, isStored: isStored)
  }

  /// Starts a room afresh with `state`, deliberately: the old state is archived by the
  /// storage and the revisions continue. For a room whose stored state no longer
  /// decodes, when the app chooses a fresh start over refusing it.
  public static func replacing(
    room id: String,
    in storage: any StateStorage,
    with state: State
  ) async throws -> RoomJournal {
    let stored = try await storage.replaceRoom(id, state: try JSONValueEncoder().encode(state))
    return try RoomJournal(room: stored, state: state, storage: storage)
  }
}
