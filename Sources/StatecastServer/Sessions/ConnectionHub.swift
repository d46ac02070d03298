import Foundation
import StatecastJSON

/// Ties sockets to sessions and sessions to topics: the transport's handler.
///
/// The transport calls the `transport…` methods on its service thread; they only
/// update tables and hand work to tasks, never run app code or encode anything.
/// Everything else runs on connection tasks.
///
/// Thread safety: the tables below `lock` are guarded by it. Lock order: this lock may
/// be held while a session's lock is taken (so that a resume and an expiry never both
/// win), never the other way round; it is never held across an `await` or a call into
/// a topic.
final class ConnectionHub: TransportHandler, @unchecked Sendable {
  let configuration: ServerConfiguration
  private let routes: [Route]
  /// Set once, before the transport starts.
  private(set) var sink: any FrameSink = DisconnectedSink()

  private let lock = NSLock()
  private var connections: [ConnectionID: Connection] = [:]
  private var sessions: [String: Session] = [:]
  private var sharedTopics: [String: Task<any TopicHost, any Error>] = [:]
  private var isShuttingDown = false

  init(configuration: ServerConfiguration, routes: [Route]) {
    self.configuration = configuration
    self.routes = routes
  }

  func connect(to sink: any FrameSink) {
    self.sink = sink
  }

  // MARK: Transport events (service thread)

  /// Service thread: a socket finished its upgrade. It gets a fresh session and `hello`.
  func transportOpened(_ id: ConnectionID) {
    let session = Session(connection: id)
    let connection = Connection(id: id, session: session, hub: self)
    lock.withLock {
      sessions[session.id] = session
      connections[id] = connection
    }
    sink.send(ServerMessage.hello(session: session.id), to: id)
    Task {
      await connection.run()
      self.connectionEnded(connection)
    }
  }

  /// Service thread.
  func transportReceived(_ id: ConnectionID, message: [UInt8]) {
    lock.withLock { connections[id] }?.receive(.message(message))
  }

  /// Service thread.
  func transportRejectedTooLarge(_ id: ConnectionID) {
    lock.withLock { connections[id] }?.receive(.tooLarge)
  }

  /// Service thread: a congested socket drained. Topics that skipped patches queue a
  /// snapshot, from a task: serializing a snapshot is not the service thread's work.
  func transportDrained(_ id: ConnectionID) {
    guard let session = lock.withLock({ connections[id]?.session }) else { return }
    Task {
      for topic in session.allTopics { topic.resync(session.id) }
    }
  }

  /// Service thread: the socket is gone. Its loop ends after queued messages.
  func transportClosed(_ id: ConnectionID) {
    lock.withLock { connections.removeValue(forKey: id) }?.finish()
  }

  // MARK: Connection tasks

  /// Called when a connection's message loop has ended: its session, if it is still on
  /// this socket, waits the grace period for a resume and then expires.
  private func connectionEnded(_ connection: Connection) {
    let session = connection.session
    let grace = configuration.sessionGracePeriod
    let disconnected = session.disconnect(from: connection.id) {
      Task {
        try? await Task.sleep(for: grace)
        guard !Task.isCancelled else { return }
        await self.expire(session)
      }
    }
    guard disconnected else { return }
    for topic in session.allTopics { topic.detach(session.id, from: connection.id) }
  }

  private func expire(_ session: Session) async {
    // Checked and removed under the hub's lock, like a resume's look-up and move, so
    // that exactly one of the two wins.
    let expired = lock.withLock { () -> Bool in
      guard sessions[session.id] === session, session.isDisconnected else { return false }
      sessions[session.id] = nil
      return true
    }
    guard expired else { return }
    for topic in session.removeAllTopics() { await topic.remove(session.id) }
  }

  /// `hello` with an earlier session id: moves that session onto `connection` and
  /// queues what each listed topic missed. Returns the session now in force, or `nil`
  /// when the id is unknown or expired (the socket keeps its fresh session).
  func resume(
    _ id: String, revisions: [String: Int], on connection: ConnectionID, replacing fresh: Session
  ) -> Session? {
    if id == fresh.id { return fresh }
    let moved = lock.withLock { () -> (session: Session, previous: ConnectionID?)? in
      guard let old = sessions[id] else { return nil }
      sessions[fresh.id] = nil
      return (old, old.moveTo(connection))
    }
    guard let (old, previous) = moved else { return nil }
    if let previous {
      sink.close(previous, code: 4000, reason: "session resumed elsewhere")
    }
    for topic in old.allTopics {
      topic.reattach(old.id, connection: connection, after: revisions[topic.topic])
    }
    return old
  }

  /// `join`: finds the route, makes or finds the topic, adds the session as a member
  /// and queues the snapshot. Joining a joined topic queues a fresh snapshot.
  func join(_ topic: String, params: JSON, session: Session, connection: ConnectionID) async throws {
    guard let (route, parameters) = route(for: topic) else {
      throw ProtocolError(.unknownTopic, "no route matches \"\(topic)\"")
    }
    let request = JoinRequest(topic: topic, parameters: parameters, params: params, session: session.id)
    guard route.canJoin(request) else {
      throw ProtocolError(.forbidden, "joining \(topic) is not allowed")
    }
    if let host = session.topic(topic), host.attach(request, connection: connection) {
      return
    }
    guard session.topicCount < configuration.maxTopicsPerSession else {
      throw ProtocolError(.forbidden, "a session may join at most \(configuration.maxTopicsPerSession) topics")
    }
    let host: any TopicHost
    do {
      switch route.sharing {
      case .perSession: host = try await openPerSessionTopic(route: route, request: request)
      case .shared: host = try await joinSharedTopic(route: route, request: request, connection: connection)
      }
    } catch let refused as JoinRefused {
      throw ProtocolError(.forbidden, refused.reason)
    } catch let error as ProtocolError {
      throw error
    } catch {
      FileHandle.standardError.write(Data("statecast: opening \(topic) failed: \(error)\n".utf8))
      throw ProtocolError(.forbidden, "\(topic) could not be opened")
    }
    session.add(host)
    if route.sharing == .perSession {
      _ = host.attach(request, connection: connection)
    }
  }

  private func openPerSessionTopic(route: Route, request: JoinRequest) async throws -> any TopicHost {
    let host = try await route.makeHost(request, sink)
    // A store opened while the server began to stop would outlive the shutdown's sweep.
    if lock.withLock({ isShuttingDown }) {
      await host.close()
      throw ProtocolError(.forbidden, "the server is shutting down")
    }
    return host
  }

  /// Adds the session to the shared topic of that name, made once even when many
  /// browsers join at once, and made anew if the last one closed meanwhile.
  private func joinSharedTopic(route: Route, request: JoinRequest, connection: ConnectionID) async throws
    -> any TopicHost
  {
    let sink = self.sink
    while true {
      let task = try lock.withLock {
        if isShuttingDown { throw ProtocolError(.forbidden, "the server is shutting down") }
        if let existing = sharedTopics[request.topic] { return existing }
        let made = Task { try await route.makeHost(request, sink) }
        sharedTopics[request.topic] = made
        return made
      }
      let host: any TopicHost
      do {
        host = try await task.value
      } catch {
        lock.withLock { if sharedTopics[request.topic] == task { sharedTopics[request.topic] = nil } }
        throw error
      }
      if host.attach(request, connection: connection) { return host }
      // It closed when its last member left: forget it and make a new one.
      lock.withLock { if sharedTopics[request.topic] == task { sharedTopics[request.topic] = nil } }
    }
  }

  private func route(for topic: String) -> (Route, [String: String])? {
    for route in routes {
      if let parameters = route.pattern.match(topic) { return (route, parameters) }
    }
    return nil
  }

  // MARK: Shutdown

  /// From now on joins are refused, so that no store opens after the sweep.
  func beginShutdown() {
    lock.withLock { isShuttingDown = true }
  }

  /// Ends every message loop and closes every store, cancelling their effects, within
  /// the configured deadline. The transport has closed the sockets before this runs.
  func shutdown() async {
    let (allConnections, allSessions, shared) = lock.withLock {
      isShuttingDown = true
      defer {
        connections = [:]
        sessions = [:]
        sharedTopics = [:]
      }
      return (Array(connections.values), Array(sessions.values), Array(sharedTopics.values))
    }
    for connection in allConnections { connection.finish() }
    let deadline = configuration.shutdownDeadline
    await withTaskGroup(of: Void.self) { group in
      group.addTask {
        await withTaskGroup(of: Void.self) { closing in
          for session in allSessions {
            for topic in session.removeAllTopics() {
              closing.addTask { await topic.close() }
            }
          }
          for task in shared {
            closing.addTask { await (try? await task.value)?.close() }
          }
        }
      }
      group.addTask { try? await Task.sleep(for: deadline) }
      await group.next()
      group.cancelAll()
    }
  }
}

/// The sink before the transport is connected: drops everything.
private struct DisconnectedSink: FrameSink {
  func send(_ frame: OutboundFrame, to connection: ConnectionID) -> SendOutcome { .closed }
  func broadcast(_ frame: OutboundFrame, to connections: [ConnectionID]) -> BroadcastOutcome {
    var outcome = BroadcastOutcome()
    outcome.closed = connections
    return outcome
  }
  func close(_ connection: ConnectionID, code: UInt16, reason: String) {}
}
