import Foundation
import Statecast
import StatecastJSON
import StatecastTransport

/// Opens the session of a page's `GET`: the tab's session, its topics joined as its
/// socket would join them, their snapshots kept to render the page with.
///
/// The session then waits for the page's socket as a session whose socket dropped does,
/// for a short grace (``ServerConfiguration/pageSessionGrace``): the socket's `hello`
/// resumes it from the rendered revisions. A page whose socket never comes (a crawler,
/// a prefetch, a link preview) costs its stores for that grace only, and while more
/// than ``ServerConfiguration/maxWaitingPageSessions`` pages wait for their sockets, a
/// page is rendered and its session dropped at once (its runtime then joins afresh),
/// so a flood of requests holds a bounded number of stores.
final class PageSessions: Sendable {
  private let sessions: SessionRegistry
  private let topics: TopicRegistry
  private let capture: PageFrameCapture
  private let grace: Duration
  private let maxWaiting: Int
  /// When each page session kept for its socket stops waiting, oldest first.
  private let waiting = Locked<[ContinuousClock.Instant]>([])

  init(
    sessions: SessionRegistry, topics: TopicRegistry, capture: PageFrameCapture, grace: Duration,
    maxWaiting: Int
  ) {
    self.sessions = sessions
    self.topics = topics
    self.capture = capture
    self.grace = grace
    self.maxWaiting = maxWaiting
  }

  /// What a page was rendered from: the session kept for its socket (`nil` when it was
  /// dropped) and each topic's state.
  struct Opened {
    var session: String?
    var states: [String: RenderedTopic]
  }

  /// Opens a session for `viewer`, joins `pageTopics` in it (a topic that cannot be
  /// joined is left for the runtime, which reports why), and keeps it for the page's
  /// socket when there is room.
  func open(_ pageTopics: [PageTopic], viewer: Viewer, address: String) async -> Opened {
    let connection = capture.openPageConnection()
    let session = sessions.open(on: connection, viewer: viewer)
    for topic in pageTopics {
      // The page's runtime asks for its hooks' events; the socket resumes this join.
      try? await topics.join(
        topic.name, params: topic.params ?? .object(JSONObject()), session: session.id, viewer: viewer,
        connection: connection, address: address, events: true)
    }
    // A room whose owner is another process relays its snapshot later: such a topic is
    // not rendered, and the session leaves it again, so that the page's runtime joins it
    // as any topic (a session that rendered nothing is not kept at all).
    let states = capture.closePageConnection(connection)
    for topic in pageTopics where states[topic.name] == nil {
      try? await topics.leave(topic.name, session: session.id)
    }
    let kept = !states.isEmpty && admit()
    sessions.disconnect(session, from: connection, grace: kept ? grace : .zero)
    return Opened(session: kept ? session.id : nil, states: states)
  }

  /// Joins `pageTopics` in the session of a socket (a live navigation): their snapshots
  /// go to the socket as for any join, and are returned to render the page with.
  ///
  /// A topic the session holds already with the same params (the page being left binds
  /// it too) is not joined again: its membership and store stay as they are, its patches
  /// run on, and no second snapshot goes out. It is rendered with the view the socket's
  /// frames left it at (``TopicHost/currentView(of:)``); when its host cannot tell, it
  /// is not rendered, and the runtime renders it from the mirror it holds.
  func join(
    _ pageTopics: [PageTopic], session: String, viewer: Viewer, connection: ConnectionID, address: String
  ) async -> [String: RenderedTopic] {
    capture.tap(connection)
    var kept: [String: RenderedTopic] = [:]
    for topic in pageTopics {
      let params = topic.params ?? .object(JSONObject())
      if let host = topics.host(topic.name, of: session), host.joinParams(of: session) == params {
        kept[topic.name] = host.currentView(of: session)
        continue
      }
      try? await topics.join(
        topic.name, params: params, session: session, viewer: viewer, connection: connection,
        address: address, events: true)
    }
    return capture.untap(connection).merging(kept) { joined, _ in joined }
  }

  /// Whether one more page session may wait for its socket.
  private func admit() -> Bool {
    let now = ContinuousClock.now
    return waiting.withLock { deadlines in
      let expired = deadlines.prefix { $0 <= now }.count
      deadlines.removeFirst(expired)
      guard deadlines.count < maxWaiting else { return false }
      deadlines.append(now + grace)
      return true
    }
  }
}
