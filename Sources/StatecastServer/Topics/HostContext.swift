import Logging
import Statecast
import StatecastJSON
import StatecastStorage

/// What a route needs from the server to open a topic's store: where frames go, where
/// durable state is kept, where to log, and, when a saved session is being restored,
/// the state its per-tab store had.
struct HostContext: Sendable {
  let sink: any FrameSink
  let storage: (any StateStorage)?
  let logger: Logger
  /// Where durable stores' commit latency is counted, when `/metrics` is served.
  var metrics: ServerMetrics?
  /// Whether the topic being opened is a shared room (journaled when durable) rather
  /// than a per-tab store (saved with its session).
  var opensRoom = false
  /// The saved state and revision of a per-tab store being restored with its session.
  var restoring: (state: JSON, revision: Int)?
  /// Whether the room is opened by a process of a cluster: members may hold revisions
  /// of the room from another process that ran it before (see ``RevisionOrigin``).
  var isClustered = false
}

/// A store a route opened for a topic, and how the topic hosts it.
struct OpenedStore<State: Sendable, Action: Sendable>: Sendable {
  let store: Store<State, Action>
  /// Whether the state came from storage: clients may hold revisions from before (see
  /// ``RevisionOrigin``).
  var isRestored = false
  /// For per-tab stores of durable routes: the state as JSON, saved with the session.
  var saveState: (@Sendable (State) -> JSON?)?
  /// For a durable room: whether it is not stored yet (its first change creates it).
  var isNewRoom: (@Sendable () -> Bool)?
  /// For a durable room: the idempotency keys its journal holds (see ``AppliedKeys``).
  var appliedKeys: [String] = []
}
