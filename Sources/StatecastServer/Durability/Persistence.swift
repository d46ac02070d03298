public import StatecastStorage

/// Where a server keeps what outlives its process (durable rooms, saved sessions) and,
/// for several processes serving the same rooms, how they share them: one value, so that
/// the storage and the cluster cannot disagree.
///
/// ```swift
/// StatecastServer(routes: routes)                                                  // in memory
/// StatecastServer(routes: routes, persistence: .sqlite(try SQLiteStorage(directory: data)))
/// StatecastServer(routes: routes, persistence: .cluster(postgres))                 // a PostgresCluster
/// ```
public struct Persistence: Sendable {
  /// Where durable routes keep their stores and sessions are saved; `nil` in memory.
  let storage: (any StateStorage)?
  /// Shared with the other processes of a cluster; `nil` for one process alone.
  let backplane: (any ClusterBackplane)?

  /// Nothing outlives the process: durable routes keep their stores in memory (with a
  /// warning in the log), and sessions are not saved.
  public static var inMemory: Persistence { Persistence(storage: nil, backplane: nil) }

  /// One process, its durable rooms and saved sessions in SQLite.
  public static func sqlite(_ storage: SQLiteStorage) -> Persistence {
    Persistence(storage: storage, backplane: nil)
  }

  /// One process of several sharing one database (a `PostgresCluster`): each room runs
  /// in one process at a time, its owner, and the others forward their members' actions
  /// to it and relay its frames; sessions resume on any process.
  public static func cluster(_ database: some ClusterDatabase) -> Persistence {
    Persistence(storage: database.storage, backplane: database.backplane)
  }

  /// Any pair, for the server's own tests (a cluster over an in-memory backplane).
  init(storage: (any StateStorage)?, backplane: (any ClusterBackplane)?) {
    self.storage = storage
    self.backplane = backplane
  }
}
