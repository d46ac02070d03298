/// What several server processes share to host rooms together: a lease per room (so
/// that exactly one process, the room's owner, runs its store), a heartbeat per process
/// (so that an owner notices members whose process died), and ordered messages between
/// processes (actions forwarded to the owner, the owner's frames sent back).
///
/// A process is a *node*, named by an id unique to its run. Leases expire unless they
/// are renewed: when a node dies, its rooms are free again after at most the lease's
/// time to live, and another node takes them over from the durable log.
///
/// ```swift
/// let owner = try await backplane.acquireLease(room: "board/team", ttl: .seconds(2))
/// if owner == backplane.node { /* run the store here */ } else {
///   try await backplane.send(#"{"action":…}"#, to: owner)
/// }
/// for await event in backplane.inbox { … }
/// ```
public protocol ClusterBackplane: Sendable {
  /// This process's id in the cluster, unique to its run.
  var node: String { get }

  /// Takes the room's lease for `ttl` unless another node holds an unexpired one (this
  /// node's own lease is extended); returns the node that holds it afterwards.
  func acquireLease(room: String, ttl: Duration) async throws -> String

  /// Extends this node's leases on `rooms` by `ttl`; returns those it no longer holds
  /// (another node took them after they expired, or they were released).
  func renewLeases(_ rooms: [String], ttl: Duration) async throws -> Set<String>

  /// The node holding an unexpired lease on `room`, or `nil`.
  func leaseHolder(room: String) async throws -> String?

  /// Gives up this node's lease on `room` (nothing if another node holds it).
  func releaseLease(room: String) async throws

  /// Marks this node alive for `ttl`; returns every node alive now, this one included.
  func heartbeat(ttl: Duration) async throws -> Set<String>

  /// Sends `payload` (any size) to `node`. Messages one node sends to another arrive in
  /// the order their sends returned; a message to a node that is gone is dropped.
  func send(_ payload: String, to node: String) async throws

  /// What other nodes send to this one, in order. `.interrupted` means the
  /// subscription was cut and re-established: messages sent meanwhile may be lost.
  var inbox: AsyncStream<BackplaneEvent> { get }
}

/// One event of a node's ``ClusterBackplane/inbox``.
public enum BackplaneEvent: Sendable, Equatable {
  /// A message another node sent.
  case message(String)
  /// Messages may have been lost (the connection to the backplane dropped and came
  /// back): whatever depends on them must be synchronised again.
  case interrupted
}
