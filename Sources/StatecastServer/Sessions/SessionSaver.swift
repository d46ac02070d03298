import Foundation
import Logging
import StatecastStorage
import StatecastTransport

/// Keeps sessions in storage so that a tab finds its topics and its per-tab stores after
/// a restart or on another process: saves them (all that changed, periodically; one at
/// once when its topics change, in a cluster), loads one for a `hello`, deletes one that
/// expired.
///
/// A saved session is what it joined: each topic's name and params, and the state of
/// per-tab stores of durable routes. A periodic save
/// writes only the sessions whose topics or states changed since their last save (their
/// ``SaveMark``s), plus any not saved for ``refreshInterval``: 20,000 idle tabs cost
/// nothing between saves.
///
///     let saver = SessionSaver(storage: storage, topics: topics, savesEveryChange: false, logger: logger)
///     await saver.saveAll(sessions, isHeld: { registry.holds($0) })
final class SessionSaver: Sendable {
  /// How long an unchanged session goes without being saved again. Storage deletes
  /// sessions unsaved for a day or more (``StateStorage/deleteSessions(unusedFor:)``),
  /// so a tab idle for days keeps its saved copy fresh this often.
  static let refreshInterval: Duration = .seconds(3_600)

  private let storage: any StateStorage
  private let topics: TopicRegistry
  /// Whether a session is saved whenever its topics change (in a cluster, so that a
  /// browser moving to another process finds what it joined, however recently).
  private let savesEveryChange: Bool
  private let logger: Logger

  private struct Ledger: Sendable {
    /// What was last saved of each session and when.
    var lastSaved: [String: (marks: [String: SaveMark], at: ContinuousClock.Instant)] = [:]
    /// Writes of each session under way, and whether two of them overlapped.
    var writing: [String: (count: Int, overlapped: Bool)] = [:]
  }
  private let ledger = Locked(Ledger())

  init(storage: any StateStorage, topics: TopicRegistry, savesEveryChange: Bool, logger: Logger) {
    self.storage = storage
    self.topics = topics
    self.savesEveryChange = savesEveryChange
    self.logger = logger
  }

  /// The saved session `id`, or `nil` when nothing is saved under it (or it cannot be
  /// read, which is logged).
  func load(_ id: String) async -> StoredSession? {
    do {
      return try await storage.loadSession(id)
    } catch {
      logger.error(
        "a saved session cannot be read", metadata: ["session": SessionID.logged(id), "error": "\(error)"])
      return nil
    }
  }

  /// The session joined or left a topic, or came back on a new socket. It is saved at
  /// once:
  /// - in a cluster, always (this process then owns the saved copy, which a browser
  ///   moving to another process finds);
  /// - anywhere, when it is in a stored room its last save does not list. An action
  ///   there is answered `ok` once it is stored, and who sent it (a guest's id, by which
  ///   a view per viewer and undo tell members apart) must be stored no later: else a
  ///   `kill -9` brings the tab back as a stranger to what it did.
  ///
  /// Otherwise the next periodic save takes it.
  func topicsDidChange(of session: Session, isHeld: (String) -> Bool) async {
    guard savesEveryChange || isInUnsavedStoredRoom(session.id) else { return }
    let marks = saveMarks(of: session.id)
    let saved = StoredSession(
      id: session.id, viewer: session.viewer, topics: await savedTopics(of: session.id))
    beginWriting([session.id])
    do {
      try await storage.saveSessions([saved])
      endWriting([(session.id, marks)], saved: true, at: .now, isHeld: isHeld)
    } catch {
      endWriting([(session.id, marks)], saved: false, at: .now, isHeld: isHeld)
      logger.error(
        "a session could not be saved",
        metadata: ["session": SessionID.logged(session.id), "error": "\(error)"])
    }
  }

  /// Saves every one of `sessions` whose topics or per-tab state changed since it was
  /// last saved, and every one last saved more than ``refreshInterval`` ago.
  func saveAll(_ sessions: [Session], isHeld: (String) -> Bool) async {
    let now = ContinuousClock.now
    let marked = sessions.map { (session: $0, marks: saveMarks(of: $0.id)) }
    let changed = ledger.withLock { ledger in
      marked.filter { entry in
        guard let last = ledger.lastSaved[entry.session.id] else { return true }
        return last.marks != entry.marks || now - last.at >= Self.refreshInterval
      }
    }
    guard !changed.isEmpty else { return }
    var saved: [StoredSession] = []
    for entry in changed {
      saved.append(
        StoredSession(
          id: entry.session.id, viewer: entry.session.viewer, topics: await savedTopics(of: entry.session.id))
      )
    }
    let entries = changed.map { (id: $0.session.id, marks: $0.marks) }
    beginWriting(entries.map(\.id))
    do {
      try await storage.saveSessions(saved)
      endWriting(entries, saved: true, at: now, isHeld: isHeld)
    } catch {
      endWriting(entries, saved: false, at: now, isHeld: isHeld)
      logger.error(
        "sessions could not be saved", metadata: ["sessions": "\(saved.count)", "error": "\(error)"])
    }
  }

  /// Forgets what was saved of `id` (resumed under another id, expired, or the server
  /// stops): its next save writes it whole.
  func forget(_ ids: some Sequence<String>) {
    ledger.withLock { ledger in
      for id in ids { ledger.lastSaved[id] = nil }
    }
  }

  /// Deletes the saved session `id`: it expired.
  func delete(_ id: String) async {
    try? await storage.deleteSession(id)
  }

  /// What the session has joined, as saved with it.
  private func savedTopics(of session: String) async -> [StoredTopic] {
    var saved: [StoredTopic] = []
    for (topic, host) in topics.joinedHosts(of: session).sorted(by: { $0.key < $1.key }) {
      let state = await host.savedState()
      saved.append(
        StoredTopic(
          topic: topic, params: host.joinParams(of: session), state: state?.state,
          revision: Int64(state?.revision ?? 0)))
    }
    return saved
  }

  /// What the saved session depends on, cheap to read: each joined topic's host and its
  /// ``TopicHost/savedStateVersion()``. Equal marks mean equal saved topics.
  private func saveMarks(of session: String) -> [String: SaveMark] {
    topics.joinedHosts(of: session).mapValues {
      SaveMark(host: ObjectIdentifier($0), version: $0.savedStateVersion())
    }
  }

  /// Whether the session is in a stored room (``TopicHost/isStored``) that its last save
  /// does not list.
  private func isInUnsavedStoredRoom(_ session: String) -> Bool {
    let stored = topics.joinedHosts(of: session).filter { $0.value.isStored }
    guard !stored.isEmpty else { return false }
    let saved = ledger.withLock { $0.lastSaved[session]?.marks }
    return stored.contains { topic, host in saved?[topic]?.host != ObjectIdentifier(host) }
  }

  private func beginWriting(_ ids: [String]) {
    ledger.withLock { ledger in
      for id in ids {
        if let write = ledger.writing[id] {
          ledger.writing[id] = (write.count + 1, true)
        } else {
          ledger.writing[id] = (1, false)
        }
      }
    }
  }

  /// A write of these sessions ended. If it succeeded, remembers what storage now holds
  /// of each (its marks when saved) for the next ``saveAll(_:isHeld:)``; but a session
  /// written twice at once is forgotten instead (which write landed last is unknown), so
  /// that the next save writes it again. A session no longer held is not remembered.
  private func endWriting(
    _ entries: [(id: String, marks: [String: SaveMark])], saved: Bool, at instant: ContinuousClock.Instant,
    isHeld: (String) -> Bool
  ) {
    ledger.withLock { ledger in
      for (id, marks) in entries {
        guard let write = ledger.writing[id] else { continue }
        if write.overlapped {
          ledger.lastSaved[id] = nil
        } else if saved, isHeld(id) {
          ledger.lastSaved[id] = (marks, instant)
        }
        ledger.writing[id] = write.count > 1 ? (write.count - 1, true) : nil
      }
    }
  }
}

/// One joined topic's part in a saved session: its host and the version of its saved
/// state (see ``SessionSaver``).
struct SaveMark: Equatable, Sendable {
  var host: ObjectIdentifier
  var version: Int?
}
