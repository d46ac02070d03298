import StatecastJSON

/// A live topic: one store, its encoded view, its revision counter, and its members.
///
/// The server talks to every topic through this protocol, whatever the store's types.
/// A per-session topic has one member; a shared topic has many. Members are sessions
/// (not sockets), so a member whose socket dropped keeps its place while its session
/// waits for a reconnect. A topic closes its store (cancelling its effects) when its
/// last member is removed.
protocol TopicHost: AnyObject, Sendable {
  var topic: String { get }

  /// Adds (or refreshes) a member and queues a snapshot of the current view to it.
  /// Returns `false`, doing nothing, if the topic has already closed; throws if the
  /// topic's store runs in another process that could not be reached.
  func attach(_ request: JoinRequest, connection: ConnectionID) async throws -> Bool
  /// Decodes `action` as the route's client action, checks the route's access rules and
  /// sends it to the store. When it returns, the reducer has run and any resulting
  /// patch is already queued. An action with an idempotency `key` the topic has
  /// applied already returns at once, applying nothing (see ``AppliedKeys``).
  /// `creator` is who a first change of a new room counts against: the topic registry
  /// counts it for a room this process runs; a room run by another process counts it
  /// there.
  func perform(_ action: JSON, key: String?, from session: String, creator: RoomCreator?)
    async throws(ProtocolError)
  /// Sets what the member publishes about itself (an object, already bounded in size)
  /// and shows it to every member under `/presence`.
  func setPresence(_ meta: JSON, from session: String) throws(ProtocolError)
  /// `true` once, for the first action sent to a durable room that is not stored yet:
  /// that action may create it, and counts against a ``NewRoomQuota``.
  func claimsNewRoom() -> Bool
  /// Gives the claim back, when the quota refused the action it was for.
  func unclaimNewRoom()
  /// Whether the topic's changes are committed to storage as they happen (a durable
  /// room): what a member does there outlives the process, so its session is saved
  /// before its first action there is answered (``SessionSaver``).
  var isStored: Bool { get }
  /// The `params` the member joined with (saved with its session).
  func joinParams(of session: String) -> JSON?
  /// For a per-tab store of a durable route: its state as JSON and its revision, to be
  /// saved with the session; `nil` for every other topic.
  func savedState() async -> (state: JSON, revision: Int)?
  /// A number that changes whenever ``savedState()`` would, read without encoding the
  /// state; `nil` when there is nothing to save. Lets a periodic save skip what did
  /// not change.
  func savedStateVersion() -> Int?
  /// Whether patches to the member were skipped (its socket is congested) and it waits
  /// for a snapshot: a reply to it must wait too, or it would overtake its effect.
  func isBehind(_ session: String) -> Bool
  /// The member's socket `connection` is gone; its membership stays for a resume. Does
  /// nothing if the member has meanwhile moved to another socket.
  func detach(_ session: String, from connection: ConnectionID)
  /// The member is back on `connection`. Queues the patches after `rev` (or a snapshot
  /// when they are no longer held); with `rev` `nil`, just resumes streaming.
  func reattach(_ session: String, connection: ConnectionID, after rev: Int?)
  /// The member's socket drained after congestion: queue one fresh snapshot if patches
  /// were skipped meanwhile; returns whether it did.
  @discardableResult func resync(_ session: String) -> Bool
  /// The member's frames were dropped on their way to it (its socket on another node
  /// was congested): queue one fresh snapshot to it, whatever this host skipped.
  func refresh(_ session: String)
  /// Ends the membership; the last one leaving closes the store. Returns whether it did.
  func remove(_ session: String) async -> Bool
  /// Closes the store whatever its members: cancels its effects and waits for them.
  func close() async
  /// Returns once a closing store is closed (its effects ended, a durable store's
  /// commits finished), at once if it is not closing.
  func waitUntilClosed() async
  /// What the topic accepts as uploads; `nil` when it takes none.
  var uploads: TopicUploads? { get }
  /// Every member's join and socket (`nil` while it is away): the members a room of a
  /// cluster takes along when it moves to another process.
  func memberSockets() -> [(request: JoinRequest, connection: ConnectionID?)]
  /// The member's view as the frames sent to its socket left it (the state a snapshot
  /// would carry, and its revision), sending nothing: a live navigation renders with it
  /// a topic the session keeps. `nil` when this host cannot tell (a room of another
  /// process); the runtime then renders the topic from its own mirror.
  func currentView(of session: String) -> RenderedTopic?
}

extension TopicHost {
  /// Not committed here (in-memory topics; a cluster's rooms, whose members' sessions are
  /// saved at every change of topics anyway).
  var isStored: Bool { false }
  /// Not a room that a first change creates (per-tab topics, rooms of other processes).
  func claimsNewRoom() -> Bool { false }
  func unclaimNewRoom() {}

  /// `perform` with nobody to count a new room against.
  func perform(_ action: JSON, key: String? = nil, from session: String) async throws(ProtocolError) {
    try await perform(action, key: key, from: session, creator: nil)
  }

  var uploads: TopicUploads? { nil }

  func memberSockets() -> [(request: JoinRequest, connection: ConnectionID?)] { [] }

  func currentView(of session: String) -> RenderedTopic? { nil }
}
