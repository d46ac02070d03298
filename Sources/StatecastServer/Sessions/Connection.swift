import Foundation
import StatecastJSON

/// One WebSocket: its message loop, and the limits that apply to it.
///
/// The transport hands each received message to ``receive(_:)`` on the service thread;
/// the message loop, a task of its own, processes them one at a time in arrival order
/// (PROTOCOL.md: one connection's messages are processed in the order received).
///
/// Thread safety: `session` and `pendingBytes` are guarded by `lock` (the service thread
/// reads the one and counts the other); everything below them belongs to the message
/// loop alone.
final class Connection: @unchecked Sendable {
  enum Inbound: Sendable {
    case message([UInt8])
    case tooLarge
  }

  let id: ConnectionID
  private let hub: ConnectionHub
  private let inbox: AsyncStream<Inbound>.Continuation
  private let messages: AsyncStream<Inbound>

  private let lock = NSLock()
  private var currentSession: Session
  private var pendingBytes = 0

  // Owned by the message loop.
  private var hasReceived = false
  private var isClosing = false
  private var limiter: RateLimiter
  private var errorTimes: [ContinuousClock.Instant] = []

  init(id: ConnectionID, session: Session, hub: ConnectionHub) {
    self.id = id
    self.currentSession = session
    self.hub = hub
    self.limiter = RateLimiter(
      burst: hub.configuration.actionBurst, perSecond: hub.configuration.actionsPerSecond)
    (messages, inbox) = AsyncStream.makeStream(of: Inbound.self, bufferingPolicy: .unbounded)
  }

  /// The session this socket speaks for: its fresh one, or the one a `hello` resumed.
  var session: Session {
    lock.withLock { currentSession }
  }

  /// Service thread: queues a message for the loop. A peer whose unhandled messages
  /// pile up past ``ServerConfiguration/maxPendingInboundBytes`` is closed with 1008
  /// instead, so that memory stays bounded whatever a client sends.
  func receive(_ item: Inbound) {
    let size = if case .message(let bytes) = item { bytes.count } else { 0 }
    let overflows = lock.withLock {
      pendingBytes += size
      return pendingBytes > hub.configuration.maxPendingInboundBytes
    }
    if overflows {
      hub.sink.close(id, code: 1008, reason: "too many unhandled messages")
      inbox.finish()
    } else {
      inbox.yield(item)
    }
  }

  /// Service thread (socket closed) or shutdown: ends the loop after queued messages.
  func finish() {
    inbox.finish()
  }

  /// The message loop; returns when the socket has closed and every message is handled.
  func run() async {
    for await item in messages {
      switch item {
      case .message(let bytes):
        if !isClosing { await handle(bytes) }
        lock.withLock { pendingBytes -= bytes.count }
      case .tooLarge:
        guard !isClosing else { continue }
        let error = ProtocolError(.tooLarge, "the message is over \(hub.configuration.maxMessageSize) bytes")
        hub.sink.send(ServerMessage.error(ref: nil, error), to: id)
        closeSocket(code: 1009, reason: "message too large")
      }
    }
  }

  private func handle(_ bytes: [UInt8]) async {
    let session = self.session
    // After another socket took this session over (a resume), this one is being closed
    // with 4000: what it still had queued must not act for the session any more.
    guard session.currentConnection == id else {
      isClosing = true
      return
    }
    let isFirst = !hasReceived
    hasReceived = true
    let (ref, parsed) = ClientMessage.parse(bytes, maxDepth: hub.configuration.maxMessageDepth)
    let message: ClientMessage
    switch parsed {
    case .success(let value): message = value
    case .failure(let error): return fail(ref, error)
    }
    switch message {
    case .hello(let previous, let revisions):
      guard isFirst else {
        return fail(ref, ProtocolError(.badMessage, "hello is only allowed as the first message"))
      }
      let resumed = hub.resume(previous, revisions: revisions, on: id, replacing: session)
      if let resumed { lock.withLock { currentSession = resumed } }
      reply(ref, ["session": .string((resumed ?? session).id), "resumed": .bool(resumed != nil)])

    case .join(let topic, let params):
      do {
        try await hub.join(topic, params: params, session: session, connection: id)
        reply(ref)
      } catch let error as ProtocolError {
        fail(ref, error)
      } catch {
        fail(ref, ProtocolError(.forbidden, "\(topic) could not be opened"))
      }

    case .action(let topic, let action):
      guard limiter.allow() else {
        return fail(ref, ProtocolError(.rateLimited, "more than \(hub.configuration.actionBurst) actions at once"))
      }
      guard let host = session.topic(topic) else {
        return fail(ref, ProtocolError(.notJoined, "not joined to \(topic)"))
      }
      if let error = await host.perform(action, from: session.id) {
        fail(ref, error)
      } else {
        reply(ref)
      }

    case .leave(let topic):
      guard let host = session.removeTopic(topic) else {
        return fail(ref, ProtocolError(.notJoined, "not joined to \(topic)"))
      }
      await host.remove(session.id)
      reply(ref)
    }
  }

  private func reply(_ ref: Int64?, _ extra: KeyValuePairs<String, JSON> = [:]) {
    hub.sink.send(ServerMessage.ok(ref: ref, extra), to: id)
  }

  /// Answers an error and closes a peer that keeps misbehaving (PROTOCOL.md: by default
  /// 100 error replies within 10 s → 1008).
  private func fail(_ ref: Int64?, _ error: ProtocolError) {
    hub.sink.send(ServerMessage.error(ref: ref, error), to: id)
    let now = ContinuousClock.now
    let windowStart = now - hub.configuration.misbehaviourWindow
    errorTimes.removeAll { $0 < windowStart }
    errorTimes.append(now)
    if errorTimes.count >= hub.configuration.misbehaviourLimit {
      closeSocket(code: 1008, reason: "too many bad messages")
    }
  }

  private func closeSocket(code: UInt16, reason: String) {
    isClosing = true
    hub.sink.close(id, code: code, reason: reason)
  }
}
