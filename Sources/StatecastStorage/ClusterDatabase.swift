/// What the processes of a cluster share, as one of them sees it: the storage of rooms
/// and sessions, and the backplane, both under this process's one node id. Handing a
/// server the pair as one value is what keeps the two from disagreeing (a storage of one
/// database beside a backplane of another). `PostgresCluster` is one.
public protocol ClusterDatabase: Sendable {
  associatedtype Storage: StateStorage
  associatedtype Backplane: ClusterBackplane

  /// Where durable rooms and saved sessions are kept, shared by every process.
  var storage: Storage { get }
  /// Room leases, heartbeats and messages between the processes.
  var backplane: Backplane { get }
}
