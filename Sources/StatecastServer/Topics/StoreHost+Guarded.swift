import Foundation
import Statecast
import StatecastJSON

extension StoreHost {
  /// One member of the topic: a session, on a socket or waiting for a reconnect.
  struct Member: Sendable {
    var request: JoinRequest
    var connection: ConnectionID?
    /// Patches were skipped because the socket was congested: it needs a snapshot.
    var needsSnapshot = false
    /// What the member published about itself (an object), and when, for presence.
    var meta: JSON = .object(JSONObject())
    var metaSequence = 0
    /// The order members joined in, so that presence lists them stably.
    var joinOrder: Int
    var viewer: Viewer { request.viewer }
  }

  /// What a ``StoreHost`` changes after it is made, all behind its one lock.
  struct Guarded: Sendable {
    /// How many times the store published a state: a periodic session save skips a
    /// per-tab store whose count is the one it saved (the view's revision would miss
    /// hidden state). The state itself is not kept here but read from the store when
    /// needed (``Store/withState(_:)``): a copy kept here would make the reducer copy
    /// the state's arrays whole on every change.
    var stateChanges = 0
    /// Viewer id (or `""` when the view is the same for everyone) → channel.
    var channels: [String: ViewChannel] = [:]
    var members: [String: Member] = [:]
    var presence: JSON = .array([])
    var joins = 0
    var metaUpdates = 0
    /// When a `meta` change was last published, and whether a publish is scheduled for
    /// the end of the interval (``Presence/publishInterval``).
    var lastMetaPublish: ContinuousClock.Instant?
    var metaPublishScheduled = false
    var isClosed = false
    /// Whether a first change of this new room has been counted against a quota.
    var newRoomClaimed = false
    /// Closing the store (cancelling its effects, finishing a durable store's commits),
    /// once started; awaited by whoever needs the store gone (``waitUntilClosed()``).
    var closing: Task<Void, Never>?
    var observation: StoreObservation?
    var uploads: TopicUploads?
  }
}
