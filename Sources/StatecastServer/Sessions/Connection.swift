import Foundation
import StatecastJSON

/// One WebSocket: its message loop, and the limits that apply to it.
///
/// The transport hands each received message to ``receive(_:)`` on the service thread;
/// the message loop, a task of its own, processes them one at a time in arrival order
/// (PROTOCOL.md: one connection's messages are processed in the order received). That
/// task is the only code that reads or writes the properties below `inbox`, so they
/// need no lock.
final class Connection: @unchecked Sendable {
  enum Inbound: Sendable {
    case message([UInt8])
    case tooLarge
  }

  let id: ConnectionID
  private let hub: ConnectionHub
  private let inbox: AsyncStream<Inbound>.Continuation
  private let messages: AsyncStream<Inbound>

  // Owned by the message loop.
  private(set) var session: Session
  private var hasReceived = false
  private var isClosing = false
  private var limiter: RateLimiter
  private var errorTimes: [ContinuousClock.Instant] = []

  init(id: ConnectionID, session: Session, hub: ConnectionHub) {
    self.id = id
    self.session = session
    self.hub = hub
    self.limiter = RateLimiter(
      burst: hub.configuration.actionBurst, perSecond: hub.configuration.actionsPerSecond)
    (messages, inbox) = AsyncStream.makeStream(of: Inbound.self, bufferingPolicy: .unbounded)
  }

  /// Service thread: queues a message for the loop.
  func receive(_ item: Inbound) {
    inbox.yield(item)
  }

  /// Service thread (socket closed) or shutdown: ends the loop after queued messages.
  func finish() {
    inbox.finish()
  }

  /// The message loop; returns when the socket has closed and every message is handled.
  func run() async {
    for await item in messages {
      guard !isClosing else { continue }
      switch item {
      case .message(let bytes): await handle(bytes)
      case .tooLarge:
        hub.sink.send(ServerMessage.error(ref: nil, ProtocolError(.tooLarge, "the message is over \(hub.configuration.maxMessageSize) bytes")), to: id)
        closeSocket(code: 1009, reason: "message too large")
      }
    }
  }

  private func handle(_ bytes: [UInt8]) async {
    let isFirst = !hasReceived
    hasReceived = true
    let (ref, parsed) = ClientMessage.parse(bytes, maxDepth: hub.configuration.maxMessageDepth)
    let message: ClientMessage
    switch parsed {
    case .success(let value): message = value
    case .failure(let error): return fail(ref, error)
    }
    switch message {
    case .hello(let oldSession, let revisions):
      guard isFirst else {
        return fail(ref, ProtocolError(.badMessage, "hello is only allowed as the first message"))
      }
      let resumed = hub.resume(oldSession, revisions: revisions, on: self)
      if let resumed { session = resumed }
      reply(ref, ["session": .string(session.id), "resumed": .bool(resumed != nil)])

    case .join(let topic, let params):
      do {
        try await hub.join(topic, params: params, session: session, connection: id)
        reply(ref)
      } catch let error as ProtocolError {
        fail(ref, error)
      } catch {
        fail(ref, ProtocolError(.forbidden, "joining \(topic) failed: \(error)"))
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
