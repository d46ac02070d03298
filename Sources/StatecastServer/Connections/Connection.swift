import CoreMetrics
import Foundation
import Statecast
import StatecastJSON

/// One WebSocket: its messages (`hello`, `join`, `action`, `leave`, `presence`,
/// `navigate`, and the uploads' `upload`, `upload_resume`, `upload_cancel`), and the
/// limits that apply to the socket.
///
/// The transport hands each received message to ``receive(_:)`` on the service thread.
/// The messages are processed one at a time in arrival order (PROTOCOL.md: one
/// connection's messages are processed in the order received) by a drain task, started
/// when a message arrives and none runs, which ends when the inbox is empty: an idle
/// socket keeps no task. The drain task starts at once (`Task.immediate`): it runs in
/// ``receive(_:)`` itself until its first suspension (an action's, at the store), and
/// prefers the transport's service executor after it, so an action runs inside the
/// callback that received it (see `ServiceExecutor`); a message
/// that opens stores or reads storage (`hello`, `join`, `navigate`, ...) runs in a task
/// of its own on the global executor, awaited, so that it never blocks the sockets.
///
/// Each message is parsed, counted against the allowance, and handled by
/// ``handle(_:isFirst:)``, which asks the session registry (`hello`) or the topic
/// registry (`join`, `action`, `leave`) and throws a ``ProtocolError`` for every way it
/// can fail; the drain turns the outcome into the one `reply`.
///
/// Replies keep PROTOCOL.md's promise that a reply means its effect is in the stream,
/// also when the socket is congested and a topic skips patches to it: a reply for a
/// member that waits for a catch-up snapshot is held, with every reply after it, until
/// the socket drains and the snapshot is queued (``releaseHeldReplies()``).
///
/// Thread safety: the inbox, `currentSession` and the held replies are guarded by `lock`
/// (the service thread and other tasks touch them too); everything below them belongs to
/// the drain task, of which at most one runs at a time.
final class Connection: @unchecked Sendable {
  // Sendable: the locked fields are guarded by `lock`; the drain's own fields are not
  // locked, because only the drain task touches them, one at a time (`draining`, under
  // the lock, hands them from one drain task to the next).
  enum Inbound: Sendable {
    case message([UInt8])
    case tooLarge
  }

  /// The few limits of ``ServerConfiguration`` a connection applies, copied out of it:
  /// every socket kept a whole copy of the configuration before, most of its object.
  private struct Limits {
    var maxPendingInboundBytes: Int
    var maxMessageSize: Int
    var maxMessageDepth: Int
    var actionBurst: Int
    var misbehaviorWindow: Duration
    var misbehaviorLimit: Int

    init(_ configuration: ServerConfiguration) {
      maxPendingInboundBytes = configuration.maxPendingInboundBytes
      maxMessageSize = configuration.maxMessageSize
      maxMessageDepth = configuration.maxMessageDepth
      actionBurst = configuration.actionBurst
      misbehaviorWindow = configuration.misbehaviorWindow
      misbehaviorLimit = configuration.misbehaviorLimit
    }
  }

  let id: ConnectionID
  private let configuration: Limits
  private let sink: any FrameSink
  private let sessions: SessionRegistry
  private let topics: TopicRegistry
  /// Renders pages for live navigation; `nil` when the server renders no pages.
  private let pages: PageService?
  private let uploads: UploadRegistry?
  /// Counts every reply; `nil` counts nothing.
  private let metrics: ServerMetrics?
  /// Where the drain task runs: the transport's service thread (`nil`: the global
  /// executor, as in unit tests).
  private let executor: (any TaskExecutor)?
  /// Called once, when the socket has closed and every message is handled.
  private let onFinished: @Sendable (Connection) -> Void

  private let lock = NSLock()
  private var currentSession: Session
  /// Received messages not yet handled, their bytes, whether a drain task runs, and
  /// whether the socket has closed.
  private var inbox: [Inbound] = []
  private var pendingBytes = 0
  private var draining = false
  private var finished = false
  private var heldReplies: [OutboundFrame] = []
  private var heldBytes = 0

  /// The peer's IP address (empty if unknown), for the new-room quota.
  let address: String

  // Owned by the drain task.
  private var hasReceived = false
  private var isClosing = false
  private var limiter: RateLimiter
  private var errorTimes: [ContinuousClock.Instant] = []
  /// The topic this socket last acted on, its route's pattern, which `/metrics` counts
  /// actions by, and the counter of that route's `ok` actions: a socket acts on the same
  /// topic again and again, and matching it against every route and finding the counter
  /// each time cost more than counting.
  private var lastActionRoute: (topic: String, pattern: String?, ok: Counter?)?

  init(
    id: ConnectionID, session: Session, configuration: ServerConfiguration, sink: any FrameSink,
    sessions: SessionRegistry, topics: TopicRegistry, uploads: UploadRegistry? = nil, address: String = "",
    pages: PageService? = nil, metrics: ServerMetrics? = nil, executor: (any TaskExecutor)? = nil,
    onFinished: @escaping @Sendable (Connection) -> Void = { _ in }
  ) {
    self.executor = executor
    self.onFinished = onFinished
    self.uploads = uploads
    self.metrics = metrics
    self.id = id
    self.pages = pages
    self.address = address
    self.currentSession = session
    self.configuration = Limits(configuration)
    self.sink = sink
    self.sessions = sessions
    self.topics = topics
    self.limiter = RateLimiter(burst: configuration.actionBurst, perSecond: configuration.actionsPerSecond)
  }

  /// The session this socket speaks for: its fresh one, or the one a `hello` resumed.
  var session: Session {
    lock.withLock { currentSession }
  }

  // MARK: Service thread

  /// Service thread: queues a message, and starts the drain task if none runs. A peer
  /// whose unhandled messages pile up past ``ServerConfiguration/maxPendingInboundBytes``
  /// is closed with 1008 instead, so that memory stays bounded whatever a client sends.
  func receive(_ item: Inbound) {
    let size = if case .message(let bytes) = item { bytes.count } else { 0 }
    enum Outcome { case queued, startDrain, overflow, ignored }
    let outcome = lock.withLock { () -> Outcome in
      guard !finished else { return .ignored }
      pendingBytes += size
      guard pendingBytes <= configuration.maxPendingInboundBytes else { return .overflow }
      inbox.append(item)
      guard !draining else { return .queued }
      draining = true
      return .startDrain
    }
    switch outcome {
    case .startDrain:
      // Started in place rather than enqueued: one turn of the executor less per message.
      Task.immediate(executorPreference: executor) { await self.drain() }
    case .overflow:
      sink.close(id, code: 1008, reason: "too many unhandled messages")
      finish()
    case .queued, .ignored:
      break
    }
  }

  /// Service thread (socket closed) or shutdown: no message is taken any more; those
  /// queued are still handled, then ``onFinished`` is called.
  func finish() {
    let finishesNow = lock.withLock { () -> Bool in
      guard !finished else { return false }
      finished = true
      return !draining
    }
    if finishesNow { onFinished(self) }
  }

  // MARK: Drain task

  /// Handles the queued messages in order until the inbox is empty; the last drain of a
  /// closed socket calls ``onFinished``.
  private func drain() async {
    var batch: [Inbound] = []
    while true {
      let closed = lock.withLock { () -> Bool? in
        guard inbox.isEmpty else {
          swap(&batch, &inbox)
          return nil
        }
        draining = false
        return finished
      }
      if let closed {
        if closed { onFinished(self) }
        return
      }
      for item in batch { await handleInbound(item) }
      batch.removeAll(keepingCapacity: true)
    }
  }

  private func handleInbound(_ item: Inbound) async {
    switch item {
    case .message(let bytes):
      if !isClosing { await process(bytes) }
      lock.withLock { pendingBytes -= bytes.count }
    case .tooLarge:
      guard !isClosing else { return }
      let error = ProtocolError(.tooLarge, "the message is over \(configuration.maxMessageSize) bytes")
      send(ServerMessage.error(ref: nil, error), topic: nil)
      metrics?.replied(error.code, action: nil, since: .now)
      closeSocket(code: 1009, reason: "message too large")
    }
  }

  private func process(_ bytes: [UInt8]) async {
    // After another socket took this session over (a resume), this one is being closed
    // with 4000: what it still had queued must not act for the session any more.
    guard session.currentConnection == id else {
      isClosing = true
      return
    }
    let isFirst = !hasReceived
    hasReceived = true
    let (ref, parsed) = ClientMessage.parse(bytes, maxDepth: configuration.maxMessageDepth)
    let started = metrics == nil ? nil : ContinuousClock.now
    do throws(ProtocolError) {
      let message = try parsed.get()
      let extra: [(String, JSON)]
      if case .action = message {
        extra = try await handle(message, isFirst: isFirst)
      } else {
        extra = try await handleInOwnTask(message, isFirst: isFirst)
      }
      send(ServerMessage.ok(ref: ref, extra), topic: message.topic)
      if let started { count(message, nil, since: started) }
    } catch {
      let message = try? parsed.get()
      if let started { count(message, error.code, since: started) }
      fail(ref, error, topic: message?.topic)
    }
  }

  /// Counts the reply to `message` for `/metrics`; an action on a joined topic also by
  /// its route and outcome.
  private func count(
    _ message: ClientMessage?, _ error: ProtocolError.Code?, since started: ContinuousClock.Instant
  ) {
    guard let metrics else { return }
    guard case .action(let topic, _, _) = message, error != .notJoined else {
      return metrics.replied(error, action: nil, since: started)
    }
    if lastActionRoute?.topic != topic {
      let pattern = topics.routePattern(of: topic)
      lastActionRoute = (topic, pattern, pattern.map { metrics.actionCounter(route: $0, outcome: "ok") })
    }
    if error == nil, let ok = lastActionRoute?.ok {
      metrics.repliedOK(action: ok, since: started)
    } else {
      metrics.replied(error, action: lastActionRoute?.pattern, since: started)
    }
  }

  /// ``handle(_:isFirst:)`` in a task of its own on the global executor, awaited, for
  /// every message but actions: they open stores, read storage and render pages, which
  /// must not hold up the service thread. A task also keeps the memory its deepest call
  /// chain needed until it ends: a join's (several kilobytes) ends with it.
  private func handleInOwnTask(_ message: ClientMessage, isFirst: Bool) async throws(ProtocolError)
    -> [(String, JSON)]
  {
    let outcome = await Task(executorPreference: globalConcurrentExecutor) {
      () async -> Result<[(String, JSON)], ProtocolError> in
      do throws(ProtocolError) {
        return .success(try await self.handle(message, isFirst: isFirst))
      } catch {
        return .failure(error)
      }
    }.value
    return try outcome.get()
  }

  /// Handles one well-formed client message; returns the reply's extra fields.
  private func handle(_ message: ClientMessage, isFirst: Bool) async throws(ProtocolError) -> [(String, JSON)]
  {
    let session = self.session
    switch message {
    case .hello(let previous, let revisions):
      guard isFirst else {
        throw ProtocolError(.badMessage, "hello is only allowed as the first message")
      }
      guard let (resumed, previousSocket) = sessions.resume(previous, on: id, replacing: session) else {
        // Not held here: perhaps saved before a restart.
        guard let restored = await sessions.restore(previous, on: id, replacing: session) else {
          return [("session", .string(session.id)), ("resumed", .bool(false))]
        }
        lock.withLock { currentSession = restored }
        return [("session", .string(restored.id)), ("resumed", .bool(true))]
      }
      if let previousSocket { sink.close(previousSocket, code: 4000, reason: "session resumed elsewhere") }
      topics.reattach(resumed.id, to: id, revisions: revisions)
      lock.withLock { currentSession = resumed }
      await sessions.topicsDidChange(of: resumed)  // a page's GET may have joined it to a stored room
      return [("session", .string(resumed.id)), ("resumed", .bool(true))]

    case .join(let topic, let params, let events):
      try spendAllowance()
      try await topics.join(
        topic, params: params, session: session.id, viewer: session.viewer, connection: id, address: address,
        events: events)
      await sessions.topicsDidChange(of: session)
      return []

    case .action(let topic, let action, let key):
      try spendAllowance()
      try await topics.perform(
        action, key: key, on: topic, from: session.id,
        creator: RoomCreator(viewer: session.viewer.id, address: address))
      return []

    case .leave(let topic):
      try spendAllowance()
      try await topics.leave(topic, session: session.id)
      await sessions.topicsDidChange(of: session)
      return []

    case .presence(let topic, let meta):
      try spendAllowance()
      try topics.setPresence(meta, on: topic, from: session.id)
      return []

    case .navigate(let path):
      try spendAllowance()
      guard let pages else { throw ProtocolError(.unknownPage, "this server renders no pages") }
      let html = try await pages.navigate(
        path, session: session.id, viewer: session.viewer, connection: id, address: address)
      await sessions.topicsDidChange(of: session)
      return [("html", .string(html))]
    case .upload, .uploadResume, .uploadCancel:
      try spendAllowance()
      guard let uploads else { throw ProtocolError(.badMessage, "this server takes no uploads") }
      return try await uploads.handle(message, session: session, topics: topics)
    }
  }

  /// Joins, actions and leaves share one allowance, so that neither floods the server.
  private func spendAllowance() throws(ProtocolError) {
    guard limiter.allow() else {
      throw ProtocolError(.rateLimited, "more than \(configuration.actionBurst) messages at once")
    }
  }

  /// Answers an error and closes a peer that keeps misbehaving (PROTOCOL.md: by default
  /// 100 error replies within 10 s → 1008). `unavailable` is the server's trouble, not
  /// the peer's: a client retrying through a database outage is not misbehaving.
  private func fail(_ ref: Int64?, _ error: ProtocolError, topic: String?) {
    send(ServerMessage.error(ref: ref, error), topic: topic)
    guard error.code != .unavailable else { return }
    let now = ContinuousClock.now
    let windowStart = now - configuration.misbehaviorWindow
    errorTimes.removeAll { $0 < windowStart }
    errorTimes.append(now)
    if errorTimes.count >= configuration.misbehaviorLimit {
      closeSocket(code: 1008, reason: "too many bad messages")
    }
  }

  private func closeSocket(code: UInt16, reason: String) {
    isClosing = true
    sink.close(id, code: code, reason: reason)
  }

  // MARK: Replies behind congestion

  /// The most bytes of replies held for a congested socket before it is closed as too
  /// slow: a reader that far behind is not coming back.
  static let maxHeldReplyBytes = 4 << 20

  /// Queues a reply, or holds it (and every reply after it) while the member waits for
  /// a catch-up snapshot of `topic`, so that no reply overtakes the state it answers.
  private func send(_ reply: OutboundFrame, topic: String?) {
    let sessionID = session.id
    let overflow = lock.withLock { () -> Bool in
      let behind = topic.map { topics.isBehind(sessionID, on: $0) } ?? false
      guard behind || !heldReplies.isEmpty else {
        sink.send(reply, to: id)
        return false
      }
      heldReplies.append(reply)
      heldBytes += reply.count
      return heldBytes > Self.maxHeldReplyBytes
    }
    if overflow { closeSocket(code: 1008, reason: "too slow") }
  }

  /// The socket drained and its topics queued their catch-up snapshots: the held
  /// replies follow them, in order.
  func releaseHeldReplies() {
    lock.withLock {
      for reply in heldReplies { sink.send(reply, to: id) }
      heldReplies = []
      heldBytes = 0
    }
  }
}
