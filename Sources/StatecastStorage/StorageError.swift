/// What can go wrong with stored state, each case naming what it concerns so that a
/// server can log it and decide (answer `unavailable`, start a room afresh, refuse).
///
/// ```swift
/// do {
///   journal = try await RoomJournal.open(room: id, in: storage, initialState: Todos())
/// } catch StorageError.undecodableState(let room, _, let error) {
///   log("room \(room) no longer decodes: \(error)")   // then refuse, or replace it knowingly
/// }
/// ```
public enum StorageError: Error, Sendable, CustomStringConvertible {
  /// The database at `path` cannot be opened: not a database, corrupt, unreadable,
  /// or of a schema this version does not know.
  case cannotOpen(path: String, reason: String)

  /// The room's stored state is intact but no longer decodes as the app's `State`
  /// (the type changed). Nothing was overwritten.
  case undecodableState(room: String, revision: Int64, error: any Error)

  /// The room's stored data does not fit together (a gap in its journal, a patch that
  /// does not apply, JSON that does not parse).
  case corruptRoom(room: String, reason: String)

  /// An append for `expected` found the room at another revision (`found`, or `nil`
  /// when the room does not exist): another writer changed it, or it was deleted.
  case revisionConflict(room: String, expected: Int64, found: Int64?)

  /// The database refused a write or a read (disk full, I/O error, read-only).
  case databaseFailed(reason: String)

  public var description: String {
    switch self {
    case .cannotOpen(let path, let reason):
      "cannot open the database at \(path): \(reason)"
    case .undecodableState(let room, let revision, let error):
      "the stored state of room \"\(room)\" (revision \(revision)) does not decode as the current State: \(error)"
    case .corruptRoom(let room, let reason):
      "the stored data of room \"\(room)\" is corrupt: \(reason)"
    case .revisionConflict(let room, let expected, let found):
      "room \"\(room)\": expected to write revision \(expected) but the room is at \(found.map(String.init) ?? "nothing (deleted)")"
    case .databaseFailed(let reason):
      "the database failed: \(reason)"
    }
  }
}
