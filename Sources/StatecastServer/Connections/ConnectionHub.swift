import Foundation
import Statecast
import StatecastTransport

/// The transport's handler: gives each socket a ``Connection`` with a fresh session, and
/// hands it what the socket receives.
///
/// The transport calls the `transport…` methods on its service thread; they only
/// update the table and hand work to tasks, never run app code or encode anything.
///
/// Thread safety: `connections` is locked, and the lock is never held while calling out.
final class ConnectionHub: TransportHandler, Sendable {
  private let configuration: ServerConfiguration
  private let sink: any FrameSink
  private let sessions: SessionRegistry
  private let topics: TopicRegistry
  private let uploads: UploadRegistry?
  /// Counts client messages (and, through each connection, replies) for `/metrics`;
  /// `nil` counts nothing.
  private let metrics: ServerMetrics?
  /// Renders pages for live navigation (`navigate`); `nil` when pages are not rendered.
  private let pages: PageService?

  private let connections = Locked([ConnectionID: Connection]())
  /// Where each socket's messages run: the transport's service thread.
  private let executor: ServiceExecutor?

  init(
    configuration: ServerConfiguration, sink: any FrameSink, sessions: SessionRegistry, topics: TopicRegistry,
    uploads: UploadRegistry? = nil, metrics: ServerMetrics? = nil, pages: PageService? = nil,
    executor: ServiceExecutor? = nil
  ) {
    self.executor = executor
    self.uploads = uploads
    self.pages = pages
    self.configuration = configuration
    self.metrics = metrics
    self.sink = sink
    self.sessions = sessions
    self.topics = topics
  }

  /// Service thread: a socket finished its upgrade as a guest.
  func transportOpened(_ id: ConnectionID) {
    transportOpened(id, identity: nil)
  }

  /// Service thread: a socket finished its upgrade, its address unknown.
  func transportOpened(_ id: ConnectionID, identity: (any Sendable)?) {
    transportOpened(id, identity: identity, address: "")
  }

  /// Service thread: a socket finished its upgrade, from the peer `address`. It gets a
  /// fresh session for the viewer the authenticator named (a guest otherwise) and `hello`.
  func transportOpened(_ id: ConnectionID, identity: (any Sendable)?, address: String) {
    let session = sessions.open(on: id, viewer: identity as? Viewer ?? .guest())
    let sessions = self.sessions
    let connection = Connection(
      id: id, session: session, configuration: configuration, sink: sink, sessions: sessions,
      topics: topics, uploads: uploads, address: address, pages: pages, metrics: metrics, executor: executor,
      onFinished: { connection in
        // Its session, if still on this socket, waits the grace period for a resume.
        sessions.disconnect(connection.session, from: id)
      })
    connections.withLock { $0[id] = connection }
    sink.send(ServerMessage.hello(session: session.id), to: id)
  }

  /// Service thread.
  func transportReceived(_ id: ConnectionID, message: [UInt8]) {
    metrics?.received(message)
    connections.withLock { $0[id] }?.receive(.message(message))
  }

  /// Service thread: a binary message is a chunk of an upload the socket's session
  /// announced, or refused (the transport closes the socket with 1003).
  func transportReceived(_ id: ConnectionID, binary message: [UInt8]) -> Bool {
    guard let uploads, let connection = connections.withLock({ $0[id] }) else { return false }
    let session = connection.session
    // A socket whose session was resumed elsewhere is being closed with 4000.
    guard session.currentConnection == id else { return true }
    return uploads.receive(message, from: session)
  }

  /// Service thread.
  func transportRejectedTooLarge(_ id: ConnectionID) {
    connections.withLock { $0[id] }?.receive(.tooLarge)
  }

  /// Service thread: a congested socket drained. Topics that skipped patches queue a
  /// snapshot, then the replies held behind them go out; from a task, since serializing
  /// a snapshot is not the service thread's work.
  func transportDrained(_ id: ConnectionID) {
    guard let connection = connections.withLock({ $0[id] }) else { return }
    let topics = self.topics
    Task {
      topics.resync(connection.session.id)
      connection.releaseHeldReplies()
    }
  }

  /// Service thread: the socket is gone. Its messages still queued are handled first.
  func transportClosed(_ id: ConnectionID) {
    connections.withLock { $0.removeValue(forKey: id) }?.finish()
  }

  /// Finishes every connection (the server is stopping; the sockets are closed).
  func finishAll() {
    let all = connections.withLock { connections in
      defer { connections = [:] }
      return Array(connections.values)
    }
    for connection in all { connection.finish() }
  }
}
