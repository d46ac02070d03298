public import Foundation
import GRDB
import StatecastJSON

/// The embedded ``StateStorage``: one SQLite file in a data directory, in WAL mode
/// with `synchronous = FULL`, so an acknowledged append survives `kill -9` and power
/// loss. Reads run beside the writer; all journal writes go through one group-commit
/// writer (one fsync per batch, however many rooms are in it).
///
/// One process owns the file. Several server processes sharing rooms need an engine
/// built for it (PostgreSQL) behind the same protocol.
///
/// ```swift
/// let storage = try SQLiteStorage(directory: URL(filePath: "data"))   // data/statecast.sqlite
/// let journal = try await RoomJournal.open(room: "todos/team-42", in: storage, initialState: Todos())
/// ```
public final class SQLiteStorage: StateStorage {
  /// Settings of an ``SQLiteStorage``.
  public struct Options: Sendable {
    /// Journal entries after which a room's state is written whole and its journal
    /// deleted: a restore replays at most this many patches.
    public var snapshotInterval = 100
    /// Opens the file for reading only; every write fails.
    public var readOnly = false
    /// The clock of `lastUsed` and `savedAt`, replaceable in tests.
    public var now: @Sendable () -> Date = { Date() }

    public init() {}
  }

  /// The database file.
  public let path: String
  let database: DatabasePool
  let writer: GroupCommit
  let now: @Sendable () -> Date

  /// Opens (creating it if needed) `statecast.sqlite` in `directory`, creating the
  /// directory too.
  ///
  /// The file holds session ids and every room's state: the directory is made (or
  /// tightened to) mode 0700 and the file 0600, which SQLite gives its `-wal` and `-shm`
  /// files too; a directory or file of another user is refused.
  public convenience init(directory: URL, options: Options = Options()) throws {
    let path = directory.appending(path: "statecast.sqlite").path
    do {
      try OwnerOnlyFiles.prepareDirectory(directory.path)
      if !options.readOnly { try OwnerOnlyFiles.prepareFile(path) }
    } catch {
      throw StorageError.cannotOpen(path: directory.path, reason: "\(error)")
    }
    try self.init(path: path, options: options)
  }

  /// Opens (creating it if needed) the database file at `path`. Throws
  /// ``StorageError/cannotOpen(path:reason:)`` if it is not a Statecast database
  /// this version can use.
  public init(path: String, options: Options = Options()) throws {
    self.path = path
    self.now = options.now
    do {
      var configuration = Configuration()
      configuration.readonly = options.readOnly
      configuration.busyMode = .timeout(10)
      configuration.label = "statecast"
      database = try DatabasePool(path: path, configuration: configuration)
      try Self.prepare(database, readOnly: options.readOnly)
    } catch {
      throw StorageError.cannotOpen(path: path, reason: "\(StorageError(error))")
    }
    let (pool, interval, now) = (database, Int64(max(1, options.snapshotInterval)), options.now)
    // One transaction per batch on GRDB's writer queue: one fsync for every room in it.
    writer = GroupCommit(
      writeBatch: { entries in
        let time = now().timeIntervalSince1970
        return try await pool.write { db in
          try JournalBatch.write(entries, in: db, snapshotInterval: interval, now: time)
        }
      },
      failure: { StorageError($0) }
    )
  }

  /// Durability and schema: GRDB sets `synchronous = NORMAL` with WAL (a commit may be
  /// lost on power failure); a durable store needs `FULL` on the writer connection.
  private static func prepare(_ database: DatabasePool, readOnly: Bool) throws {
    let migrator = SQLiteSchema.migrator
    if readOnly {
      try database.read { db in
        guard try migrator.hasCompletedMigrations(db), try !migrator.hasBeenSuperseded(db) else {
          throw StorageError.databaseFailed(reason: "not a Statecast database of this version")
        }
      }
      return
    }
    try database.writeWithoutTransaction { db in
      try db.execute(sql: "PRAGMA synchronous = FULL")
      if try migrator.hasBeenSuperseded(db) {
        throw StorageError.databaseFailed(reason: "written by a newer version of Statecast")
      }
    }
    try migrator.migrate(database)
  }

  public var counters: StorageCounters { writer.counters }

  public func append(_ entry: JournalEntry) async throws {
    try await writer.append(entry)
  }

  /// Runs a database access, turning its errors into ``StorageError``.
  func access<T>(_ body: () async throws -> T) async throws -> T {
    do {
      return try await body()
    } catch {
      throw StorageError(error)
    }
  }

  var currentTime: Double { now().timeIntervalSince1970 }
}
