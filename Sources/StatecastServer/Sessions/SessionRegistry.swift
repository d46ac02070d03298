import Foundation
import Logging
import Statecast
import StatecastJSON
import StatecastStorage
import StatecastTransport

/// Every live session by id: opened with a socket, moved by a resume, expired when its
/// socket has been gone for the grace period.
///
/// When a session expires, the registry tells the ``TopicRegistry`` to end its
/// memberships (which closes its per-session stores); it never decides membership
/// itself, nor how sessions are saved (its ``SessionSaver``'s part).
///
/// Thread safety: `sessions` is locked. Lock order: this lock may be held while a
/// session's lock is taken (so that a resume and an expiry never both win), never the
/// other way round; it is never held across an `await` or a call into the topic
/// registry or the saver.
final class SessionRegistry: Sendable {
  private let topics: TopicRegistry
  private let gracePeriod: Duration
  private let logger: Logger
  private let sessions = Locked([String: Session]())
  /// Saves sessions so that they survive a restart; `nil` keeps them in memory.
  private let saver: SessionSaver?

  init(
    topics: TopicRegistry, gracePeriod: Duration, logger: Logger = Logger(label: LogSubsystem.sessions.label),
    storage: (any StateStorage)? = nil, savesEveryChange: Bool = false
  ) {
    saver = storage.map {
      SessionSaver(storage: $0, topics: topics, savesEveryChange: savesEveryChange, logger: logger)
    }
    self.topics = topics
    self.gracePeriod = gracePeriod
    self.logger = logger
  }

  /// Service thread: a fresh session for a socket that just opened.
  func open(on connection: ConnectionID, viewer: Viewer) -> Session {
    let session = Session(viewer: viewer, connection: connection)
    sessions.withLock { $0[session.id] = session }
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
    let resumed = sessions.withLock { sessions -> (session: Session, previous: ConnectionID?)? in
      guard let old = sessions[id], Self.mayResume(old.viewer, as: fresh.viewer) else { return nil }
      sessions[fresh.id] = nil
      return (old, old.moveTo(connection))
    }
    if resumed != nil {
      saver?.forget([fresh.id])
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
    guard let saver, id != fresh.id, SessionID.isWellFormed(id), let saved = await saver.load(id) else {
      return nil
    }
    let viewer = saved.viewer ?? fresh.viewer
    guard Self.mayResume(viewer, as: fresh.viewer) else { return nil }
    let session = Session(id: id, viewer: viewer, connection: connection)
    let claimed = sessions.withLock { sessions -> Bool in
      guard sessions[id] == nil else { return false }
      sessions[fresh.id] = nil
      sessions[id] = session
      return true
    }
    guard claimed else { return nil }
    saver.forget([fresh.id])
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

  /// The session joined or left a topic, or came back on a new socket: its
  /// ``SessionSaver`` saves it now if it must not wait for the periodic save (in a
  /// cluster, or in a stored room its last save does not list).
  func topicsDidChange(of session: Session) async {
    await saver?.topicsDidChange(of: session, isHeld: holds)
  }

  /// Saves every session (live or waiting for a resume) that changed since it was last
  /// saved: called at an interval while the server runs and once more when it drains.
  func saveAll() async {
    guard let saver else { return }
    await saver.saveAll(sessions.withLock { Array($0.values) }, isHeld: holds)
  }

  /// Whether the session `id` is held here.
  private func holds(_ id: String) -> Bool {
    sessions.withLock { $0[id] != nil }
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
    let expired = sessions.withLock { sessions -> Bool in
      guard sessions[session.id] === session, session.isDisconnected else { return false }
      sessions[session.id] = nil
      return true
    }
    guard expired else { return }
    saver?.forget([session.id])
    logger.debug("session expired", metadata: ["session": SessionID.logged(session.id)])
    await topics.removeSession(session.id)
    await saver?.delete(session.id)
  }

  /// Forgets every session and cancels their expiries: the server is stopping and the
  /// topic registry closes every store itself.
  func removeAll() {
    let all = sessions.withLock { sessions in
      defer { sessions = [:] }
      return Array(sessions.values)
    }
    saver?.forget(all.map(\.id))
    for session in all { session.cancelExpiry() }
  }

  /// How many sessions are on a socket, and how many wait for a resume.
  var counts: (live: Int, inGrace: Int) {
    let all = sessions.withLock { Array($0.values) }
    let waiting = all.filter(\.isDisconnected).count
    return (all.count - waiting, waiting)
  }

  /// How many sessions are held, live or waiting for a resume.
  var count: Int { sessions.withLock { $0.count } }
}
