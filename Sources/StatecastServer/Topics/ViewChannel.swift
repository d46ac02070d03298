import Logging
import Statecast
import StatecastJSON

/// One encoded view of a topic and its revision stream: what every member who sees
/// that view shares (all members, or one viewer's tabs when the view is per viewer).
///
/// Not thread-safe: owned by its ``StoreHost`` under the host's lock.
struct ViewChannel {
  /// Whose view this is (``Viewer/anonymous`` when everyone sees the same one).
  let viewer: Viewer
  /// The last view as JSON, edited in place by each update.
  private(set) var tracker = JSONViewTracker()
  private(set) var revision: Int
  private(set) var history: PatchHistory
  /// The members (session ids) who receive this channel's frames.
  var sessions: Set<String> = []
  private var hasBaseline = false

  init(viewer: Viewer, revision: Int, historyCapacity: Int, startsKnown: Bool = true) {
    self.viewer = viewer
    self.revision = revision
    self.history = PatchHistory(capacity: historyCapacity, revision: revision, startsKnown: startsKnown)
  }

  /// Diffs `view` against the last one; returns the patch, or `nil` when nothing
  /// changed, for the first view (the baseline), or when the view cannot be encoded
  /// (logged; the topic keeps its last view).
  mutating func update(with view: some Encodable & Sendable, topic: String, logger: Logger) -> JSONPatch? {
    let patch: JSONPatch
    do {
      patch = try tracker.update(to: view)
    } catch {
      logger.error(
        "the view of a topic cannot be encoded", metadata: ["topic": "\(topic)", "error": "\(error)"])
      return nil
    }
    guard hasBaseline else {
      hasBaseline = true
      return nil
    }
    return patch.isEmpty ? nil : patch
  }

  /// Records `patch` as the next revision and returns its frame.
  mutating func record(_ patch: JSONPatch, topic: String) -> OutboundFrame {
    revision += 1
    let frame = ServerMessage.patch(topic: topic, rev: revision, patch: patch)
    history.append(frame, rev: revision)
    return frame
  }
}
