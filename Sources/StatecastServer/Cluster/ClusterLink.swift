import Foundation
import Logging
import StatecastStorage
import StatecastTransport

/// This process's line to the other processes of its cluster: messages out, in order per
/// node, and requests that wait for their answer.
///
/// Rooms post and request through it; the inbox hands it the answers. It knows nothing of
/// rooms, so nothing here calls back into them.
final class ClusterLink: Sendable {
  /// What a forwarded request came back with.
  enum Outcome: Sendable, Equatable {
    case ok
    case failed(ClusterMessage.Answer)
    /// No answer in time: the owner died, or the backplane is unreachable.
    case noAnswer
  }

  private struct Waiting: Sendable {
    /// Requests awaiting their answer, with the node each went to and the room it is about.
    var pending: [Int64: (node: String, room: String, continuation: CheckedContinuation<Outcome, Never>)] =
      [:]
    var nextRef: Int64 = 0
    var outboxes: [String: Outbox] = [:]
  }

  let backplane: any ClusterBackplane
  /// How long a lease lasts unless renewed; a dead owner's rooms are taken over after
  /// at most this (plus one upkeep round).
  let leaseDuration: Duration
  /// How long a forwarded request waits for its answer.
  let requestTimeout: Duration
  let logger: Logger
  private let waiting = Locked(Waiting())

  var id: String { backplane.node }

  init(backplane: any ClusterBackplane, leaseDuration: Duration, requestTimeout: Duration, logger: Logger) {
    self.backplane = backplane
    self.leaseDuration = leaseDuration
    self.requestTimeout = requestTimeout
    self.logger = logger
  }

  /// Queues `message` for `node`; messages to one node leave in the order posted.
  func post(_ message: ClusterMessage, to node: String) {
    let outbox = waiting.withLock {
      if let existing = $0.outboxes[node] { return existing }
      let made = Outbox(node: node, backplane: backplane, logger: logger)
      $0.outboxes[node] = made
      return made
    }
    outbox.post(message)
  }

  /// Sends the request `make(ref)` about `room` to `node` and waits for its answer.
  func request(to node: String, about room: String, _ make: (Int64) -> ClusterMessage) async -> Outcome {
    let ref = waiting.withLock {
      $0.nextRef += 1
      return $0.nextRef
    }
    let message = make(ref)
    let timeout = requestTimeout
    let timer = Task { [weak self] in
      try? await Task.sleep(for: timeout)
      guard !Task.isCancelled else { return }
      self?.answer(ref, with: .noAnswer)
    }
    defer { timer.cancel() }
    return await withCheckedContinuation { continuation in
      waiting.withLock { $0.pending[ref] = (node, room, continuation) }
      post(message, to: node)
    }
  }

  /// The answer to the request `ref` came (or its time ran out).
  func answer(_ ref: Int64, with outcome: Outcome) {
    waiting.withLock { $0.pending.removeValue(forKey: ref) }?.continuation.resume(returning: outcome)
  }

  /// `node` is gone (its heartbeat lapsed; `room` `nil`), or no longer runs `room`
  /// (another node took it over): the requests waiting for its answers, about any room
  /// or about `room`, end now as ``Outcome/noAnswer`` instead of at their timeout. A
  /// node that lost one room still answers for its others.
  func abandonRequests(to node: String, about room: String? = nil) {
    let abandoned = waiting.withLock { waiting in
      let refs = waiting.pending.filter { $0.value.node == node && (room == nil || $0.value.room == room) }
        .keys
      return refs.compactMap { waiting.pending.removeValue(forKey: $0)?.continuation }
    }
    for continuation in abandoned { continuation.resume(returning: .noAnswer) }
  }

  /// The nodes that requests wait on.
  var awaitedNodes: Set<String> {
    waiting.withLock { Set($0.pending.values.map(\.node)) }
  }

  /// Every request still waiting ends as ``Outcome/noAnswer`` (the server stops).
  func abandonAll() {
    let all = waiting.withLock { waiting in
      defer { waiting.pending = [:] }
      return Array(waiting.pending.values)
    }
    for request in all { request.continuation.resume(returning: .noAnswer) }
  }
}

/// The messages waiting to go to one node, sent in order, each batch in one backplane
/// message (so a burst of frames costs one round trip to the database, not one each).
private final class Outbox: Sendable {
  private struct Queue {
    var messages: [ClusterMessage] = []
    var isSending = false
  }

  private let node: String
  private let backplane: any ClusterBackplane
  private let logger: Logger
  private let queue = Locked(Queue())

  init(node: String, backplane: any ClusterBackplane, logger: Logger) {
    self.node = node
    self.backplane = backplane
    self.logger = logger
  }

  func post(_ message: ClusterMessage) {
    let starts = queue.withLock { queue in
      queue.messages.append(message)
      defer { queue.isSending = true }
      return !queue.isSending
    }
    guard starts else { return }
    Task { await drain() }
  }

  private func drain() async {
    while true {
      let batch = queue.withLock { queue in
        defer { queue.messages = [] }
        if queue.messages.isEmpty { queue.isSending = false }
        return queue.messages
      }
      guard !batch.isEmpty else { return }
      do {
        try await backplane.send(ClusterMessage.encode(batch), to: node)
      } catch {
        logger.warning(
          "cluster messages could not be sent",
          metadata: ["node": "\(node)", "count": "\(batch.count)", "error": "\(error)"])
      }
    }
  }
}
