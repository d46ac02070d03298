public import Foundation
public import Statecast
public import StatecastJSON

/// A tab's session as saved, so that the tab survives a deploy: a restarted server
/// (or another instance) resumes it with `resumed: true`.
///
/// Shared topics need only their name (the room keeps its own state); a per-tab store
/// of a durable route also carries its state and revision, saved in batches.
///
/// ```swift
/// try await storage.saveSessions([
///   StoredSession(id: session.id, topics: [
///     StoredTopic(topic: "todos/team-42"),
///     StoredTopic(topic: "counter", state: ["count": 3], revision: 12),
///   ])
/// ])
/// ```
public struct StoredSession: Sendable, Equatable {
  public var id: String
  /// Whom the session belongs to: only the same viewer may resume it.
  public var viewer: Viewer?
  public var topics: [StoredTopic]
  /// When it was saved; set by the storage.
  public var savedAt: Date

  public init(
    id: String, viewer: Viewer? = nil, topics: [StoredTopic], savedAt: Date = Date(timeIntervalSince1970: 0)
  ) {
    self.id = id
    self.viewer = viewer
    self.topics = topics
    self.savedAt = savedAt
  }
}

/// What the `topics` column of a saved session holds, in every engine.
package struct StoredSessionRecord: Codable {
  package var viewer: Viewer?
  package var topics: [StoredTopic]

  package init(viewer: Viewer?, topics: [StoredTopic]) {
    self.viewer = viewer
    self.topics = topics
  }
}

/// One topic a saved session had joined.
public struct StoredTopic: Sendable, Equatable, Codable {
  public var topic: String
  /// The `params` of its `join`, to join it again.
  public var params: JSON?
  /// A per-tab store's state JSON; `nil` for a shared room or a store kept in memory only.
  public var state: JSON?
  /// The topic's revision as the tab last saw it.
  public var revision: Int64

  public init(topic: String, params: JSON? = nil, state: JSON? = nil, revision: Int64 = 0) {
    self.topic = topic
    self.params = params
    self.state = state
    self.revision = revision
  }
}
