import Foundation
import Logging
import Statecast
import StatecastJSON
import StatecastStorage

/// Every live session by id: opened with a socket, moved by a resume, expired when its
/// socket has been gone for the grace period.
///
/// When a session expires, the registry tells the ``TopicRegistry`` to end its
/// memberships (which closes its per-session stores); it never decides membership
/// itself.
///
/// Thread safety: `sessions` is guarded by `lock`. Lock order: this lock may be held
/// while a session's lock is taken (so that a resume and an expiry never both win),
/// never the other way round; it is never held across an `await` or a call into the
/// topic registry.
final class SessionRegistry: @unchecked Sendable {
  private let topics: TopicRegistry
  private let gracePeriod: Duration
  private let logger: Logger

  private let lock = NSLock()
  private var sessions: [String: Session] = [:]
  /// What was last saved of each session and when, so that a periodic save writes only
  /// what changed: 20,000 idle tabs cost nothing between saves. Guarded by `lock`.
  private var lastSaved: [String: (marks: [String: SaveMark], at: ContinuousClock.Instant)] = [:]
  /// How long an unchanged session goes without being saved again. Storage deletes
  /// sessions unsaved for a day or more (``StateStorage/deleteSessions(unusedFor:)``),
  /// so a tab idle for days keeps its saved copy fresh this often.
  static let refreshInterval: Duration = .seconds(3_600)
  /// Writes of each session under way, and whether two of them overlapped. Guarded by
  /// `lock`.
  private var writing: [String: (count: Int, overlapped: Bool)] = [:]

  /// Where sessions are saved so that they survive a restart; `nil` keeps them in memory.
  private let storage: (any StateStorage)?
  /// Whether a session is saved whenever its topics change (in a cluster, so that a
  /// browser moving to another process finds what it joined, however recently).
  private let savesEveryChange: Bool

  init(
    topics: TopicRegistry, gracePeriod: Duration, logger: Logger = Logger(label: LogSubsystem.sessions.label),
    storage: (any StateStorage)? = nil, savesEveryChange: Bool = false
  ) {
    self.storage = storage
    self.savesEveryChange = savesEveryChange
    self.topics = topics
    self.gracePeriod = gracePeriod
    self.logger = logger
  }

  /// Service thread: a fresh session for a socket that just opened.
  func open(on connection: ConnectionID, viewer: Viewer) -> Session {
    let session = Session(viewer: viewer, connection: connection)
    lock.withLock { sessions[session.id] = session }
    logger.debug("session opened", metadata: ["session": SessionID.logged(session.id)])
    return session
  }

  /// `hello` with an earlier session id: moves that session onto `connection` and drops
  /// the socket's `fresh` one. Returns the session now in force and the socket it was
  /// on before (to be closed with 4000), or `nil` when the id is unknown, expired, or
  /// belongs to another viewer.
  ///
  /// A session id alone is a bearer credential only between guests: a session of an
  /// authenticated viewer resumes only on a socket authenticated as the same viewer, and
  /// a guest's socket never takes over an authenticated session (nor the reverse).
  func resume(_ id: String, on connection: ConnectionID, replacing fresh: Session) -> (
    session: Session, previous: ConnectionID?
  )? {
    if id == fresh.id { return (fresh, nil) }
    let resumed = lock.withLock { () -> (session: Session, previous: ConnectionID?)? in
      guard let old = sessions[id], Self.mayResume(old.viewer, as: fresh.viewer) else { return nil }
      sessions[fresh.id] = nil
      lastSaved[fresh.id] = nil
      return (old, old.moveTo(connection))
    }
    if resumed != nil {
      logger.debug(
        "session resumed", metadata: ["session": SessionID.logged(id), "fresh": SessionID.logged(fresh.id)])
    }
    return resumed
  }

  private static func mayResume(_ owner: Viewer, as claimant: Viewer) -> Bool {
    guard owner.isAuthenticated || claimant.isAuthenticated else { return true }
    return owner.isAuthenticated && claimant.isAuthenticated && owner.id == claimant.id
  }

  /// `hello` with a session this process does not hold: a saved one (the server
  /// restarted, a deploy) is restored onto `connection`, its topics joined again (a
  /// snapshot of each is queued) with the saved state of its per-tab stores. Returns
  /// `nil` when nothing is saved under `id` or it belongs to another viewer.
  func restore(_ id: String, on connection: ConnectionID, replacing fresh: Session) async -> Session? {
    guard let storage, id != fresh.id, SessionID.isWellFormed(id) else { return nil }
    let saved: StoredSession?
    do {
      saved = try await storage.loadSession(id)
    } catch {
      logger.error(
        "a saved session cannot be read", metadata: ["session": SessionID.logged(id), "error": "\(error)"])
      return nil
    }
    guard let saved else { return nil }
    let viewer = saved.viewer ?? fresh.viewer
    guard Self.mayResume(viewer, as: fresh.viewer) else { return nil }
    let session = Session(id: id, viewer: viewer, connection: connection)
    let claimed = lock.withLock { () -> Bool in
      guard sessions[id] == nil else { return false }
      sessions[fresh.id] = nil
      lastSaved[fresh.id] = nil
      sessions[id] = session
      return true
    }
    guard claimed else { return nil }
    for topic in saved.topics {
      do {
        try await topics.join(
          topic.topic, params: topic.params ?? .object(JSONObject()), session: id, viewer: viewer,
          connection: connection, restoring: topic.state.map { ($0, Int(topic.revision)) })
      } catch {
        logger.warning(
          "a topic of a restored session could not be joined again",
          metadata: ["session": SessionID.logged(id), "topic": "\(topic.topic)", "error": "\(error.message)"])
      }
    }
    logger.debug(
      "session restored", metadata: ["session": SessionID.logged(id), "topics": "\(saved.topics.count)"])
    await topicsDidChange(of: session)
    return session
  }

  /// The session joined or left a topic: in a cluster it is saved at once (this
  /// process then owns the saved copy), elsewhere with the next periodic save.
  func topicsDidChange(of session: Session) async {
    guard savesEveryChange, let storage else { return }
    let marks = topics.saveMarks(of: session.id)
    let saved = StoredSession(
      id: session.id, viewer: session.viewer, topics: topics.savedTopics(of: session.id))
    beginWriting([session.id])
    do {
      try await storage.saveSessions([saved])
      endWriting([(session.id, marks)], saved: true, at: .now)
    } catch {
      endWriting([(session.id, marks)], saved: false, at: .now)
      logger.error(
        "a session could not be saved",
        metadata: ["session": SessionID.logged(session.id), "error": "\(error)"])
    }
  }

  /// Saves every session (live or waiting for a resume) whose topics or per-tab state
  /// changed since it was last saved, and every one last saved more than
  /// ``refreshInterval`` ago: called at an interval while the server runs and once more
  /// when it drains.
  func saveAll() async {
    guard let storage else { return }
    let all = lock.withLock { Array(sessions.values) }
    let now = ContinuousClock.now
    let marked = all.map { (session: $0, marks: topics.saveMarks(of: $0.id)) }
    let changed = lock.withLock {
      marked.filter { entry in
        guard let last = lastSaved[entry.session.id] else { return true }
        return last.marks != entry.marks || now - last.at >= Self.refreshInterval
      }
    }
    guard !changed.isEmpty else { return }
    let saved = changed.map {
      StoredSession(
        id: $0.session.id, viewer: $0.session.viewer, topics: topics.savedTopics(of: $0.session.id))
    }
    let entries = changed.map { (id: $0.session.id, marks: $0.marks) }
    beginWriting(entries.map(\.id))
    do {
      try await storage.saveSessions(saved)
      endWriting(entries, saved: true, at: now)
    } catch {
      endWriting(entries, saved: false, at: now)
      logger.error(
        "sessions could not be saved", metadata: ["sessions": "\(saved.count)", "error": "\(error)"])
    }
  }

  private func beginWriting(_ ids: [String]) {
    lock.withLock {
      for id in ids {
        if let write = writing[id] { writing[id] = (write.count + 1, true) } else { writing[id] = (1, false) }
      }
    }
  }

  /// A write of these sessions ended. If it succeeded, remembers what storage now holds
  /// of each (its marks when saved) for the next ``saveAll()``; but a session written
  /// twice at once is forgotten instead (which write landed last is unknown), so that
  /// the next ``saveAll()`` writes it again.
  private func endWriting(
    _ entries: [(id: String, marks: [String: SaveMark])], saved: Bool, at instant: ContinuousClock.Instant
  ) {
    lock.withLock {
      for (id, marks) in entries {
        guard let write = writing[id] else { continue }
        if write.overlapped {
          lastSaved[id] = nil
        } else if saved, sessions[id] != nil {
          lastSaved[id] = (marks, instant)
        }
        writing[id] = write.count > 1 ? (write.count - 1, true) : nil
      }
    }
  }

  /// The socket `connection` is gone: if `session` is still on it, its memberships wait
  /// for a resume, and the session expires after the grace period (or `grace`: a page's
  /// session waits a shorter time for its socket).
  func disconnect(_ session: Session, from connection: ConnectionID, grace: Duration? = nil) {
    let grace = grace ?? gracePeriod
    let disconnected = session.disconnect(from: connection) {
      Task {
        try? await Task.sleep(for: grace)
        guard !Task.isCancelled else { return }
        await self.expire(session)
      }
    }
    if disconnected { topics.detach(session.id, from: connection) }
  }

  private func expire(_ session: Session) async {
    // Checked and removed under the lock, like a resume's look-up and move, so that
    // exactly one of the two wins.
    let expired = lock.withLock { () -> Bool in
      guard sessions[session.id] === session, session.isDisconnected else { return false }
      sessions[session.id] = nil
      lastSaved[session.id] = nil
      return true
    }
    guard expired else { return }
    logger.debug("session expired", metadata: ["session": SessionID.logged(session.id)])
    await topics.removeSession(session.id)
    try? await storage?.deleteSession(session.id)
  }

  /// Forgets every session and cancels their expiries: the server is stopping and the
  /// topic registry closes every store itself.
  func removeAll() {
    let all = lock.withLock {
      defer {
        sessions = [:]
        lastSaved = [:]
      }
      return Array(sessions.values)
    }
    for session in all { session.cancelExpiry() }
  }

  /// How many sessions are on a socket, and how many wait for a resume.
  var counts: (live: Int, inGrace: Int) {
    let all = lock.withLock { Array(sessions.values) }
    let waiting = all.filter(\.isDisconnected).count
    return (all.count - waiting, waiting)
  }

  /// How many sessions are held, live or waiting for a resume.
  var count: Int { lock.withLock { sessions.count } }
}
