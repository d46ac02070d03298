import Foundation
import StatecastJSON

/// The mutable state of a ``StatecastConnection``: its current socket, session, pending
/// requests by `ref`, and subscriptions by topic. One lock guards it; continuations are
/// resumed outside the lock.
///
/// The socket's reader task is the only one that applies server messages, so a topic's
/// states are applied in the order the server sent them.
final class ConnectionState: @unchecked Sendable {
  // Sendable: every stored property is guarded by `lock`.

  private let lock = NSLock()
  private var current: WebSocketConnection?
  private var session: String?
  private var lastCloseCode: UInt16?
  private var nextRef: Int64 = 1
  private var pending: [Int64: CheckedContinuation<JSON, any Error>] = [:]
  private var subscriptions: [String: TopicSubscription] = [:]
  private var helloWaiter: CheckedContinuation<String, any Error>?
  private var closedForGood = false
  private var closeWaiters: [CheckedContinuation<UInt16, Never>] = []

  var socket: WebSocketConnection? { lock.withLock { current } }
  var sessionID: String? { lock.withLock { session } }
  var closeCode: UInt16? { lock.withLock { lastCloseCode } }

  /// Makes `socket` the current one; `hello` is resumed with the session its `hello`
  /// names (or fails if it closes first).
  func adopt(_ socket: WebSocketConnection, hello: CheckedContinuation<String, any Error>) {
    lock.withLock {
      current = socket
      lastCloseCode = nil
      helloWaiter = hello
    }
  }

  /// Allocates a `ref` for a request on the current socket and remembers its waiter;
  /// `nil` when there is no open socket.
  func register(_ continuation: CheckedContinuation<JSON, any Error>) -> (WebSocketConnection, Int64)? {
    lock.withLock {
      guard let current, lastCloseCode == nil else { return nil }
      let ref = nextRef
      nextRef += 1
      pending[ref] = continuation
      return (current, ref)
    }
  }

  /// Fails the request `ref`, if it is still waiting.
  func fail(_ ref: Int64, _ error: any Error) {
    lock.withLock { pending.removeValue(forKey: ref) }?.resume(throwing: error)
  }

  func subscription(for topic: String) -> TopicSubscription {
    lock.withLock {
      if let existing = subscriptions[topic] { return existing }
      let created = TopicSubscription(topic: topic)
      subscriptions[topic] = created
      return created
    }
  }

  func removeSubscription(_ topic: String) -> TopicSubscription? {
    lock.withLock { subscriptions.removeValue(forKey: topic) }
  }

  /// The last applied revision of every topic that has a state.
  func revisions() -> [(String, Int64)] {
    let all = lock.withLock { Array(subscriptions.values) }
    return all.compactMap { subscription in subscription.revision.map { (subscription.topic, $0) } }
  }

  func topics() -> [String] {
    lock.withLock { Array(subscriptions.keys) }
  }

  func setSession(_ id: String) {
    lock.withLock { session = id }
  }

  /// Resumes `waiter` with the close code once the current socket has closed.
  func onSocketClosed(_ waiter: CheckedContinuation<UInt16, Never>) {
    let code: UInt16? = lock.withLock {
      if let lastCloseCode { return lastCloseCode }
      closeWaiters.append(waiter)
      return nil
    }
    if let code { waiter.resume(returning: code) }
  }

  /// The user closed the connection: subscriptions end when the socket does.
  func closing() {
    lock.withLock { closedForGood = true }
  }

  // MARK: - Reader task

  /// Applies one server message from `socket` (ignored if a newer socket replaced it).
  func handle(_ bytes: [UInt8], from socket: WebSocketConnection) {
    guard lock.withLock({ current === socket }) else { return }
    guard let message = try? JSON(parsing: bytes), let op = message["op"]?.stringValue else { return }
    switch op {
    case "hello":
      guard let id = message["session"]?.stringValue else { return }
      let waiter: CheckedContinuation<String, any Error>? = lock.withLock {
        if session == nil { session = id }
        defer { helloWaiter = nil }
        return helloWaiter
      }
      waiter?.resume(returning: id)
    case "reply":
      guard let ref = message["ref"]?.int64Value,
        let waiter = lock.withLock({ pending.removeValue(forKey: ref) })
      else { return }
      if message["status"]?.stringValue == "ok" {
        waiter.resume(returning: message)
      } else {
        let error = message["error"]
        waiter.resume(
          throwing: StatecastError(
            code: error?["code"]?.stringValue ?? "bad_message", message: error?["message"]?.stringValue ?? "")
        )
      }
    case "snapshot":
      guard let topic = message["topic"]?.stringValue, let revision = message["rev"]?.int64Value,
        let state = message["state"], let subscription = lock.withLock({ subscriptions[topic] })
      else { return }
      subscription.applySnapshot(state, revision: revision)
    case "patch":
      guard let topic = message["topic"]?.stringValue, let revision = message["rev"]?.int64Value,
        let operations = message["ops"], let subscription = lock.withLock({ subscriptions[topic] })
      else { return }
      let applied =
        (try? JSONPatch(json: operations)).map { subscription.applyPatch($0, revision: revision) } ?? false
      if !applied { requestSnapshot(of: topic, on: socket) }
    case "closed":
      guard let topic = message["topic"]?.stringValue else { return }
      lock.withLock { subscriptions.removeValue(forKey: topic) }?.finish(
        reason: message["reason"]?.stringValue)
    default:
      return
    }
  }

  /// The socket ended: fail what waits on it; end the subscriptions if the user closed.
  func socketClosed(_ socket: WebSocketConnection, code: UInt16) {
    let (waiters, hello, ended, closeWaiters):
      (
        [CheckedContinuation<JSON, any Error>], CheckedContinuation<String, any Error>?, [TopicSubscription],
        [CheckedContinuation<UInt16, Never>]
      ) =
        lock.withLock {
          guard current === socket else { return ([], nil, [], []) }
          lastCloseCode = code
          let waiters = Array(pending.values)
          pending = [:]
          let hello = helloWaiter
          helloWaiter = nil
          var ended: [TopicSubscription] = []
          if closedForGood {
            ended = Array(subscriptions.values)
            subscriptions = [:]
          }
          defer { self.closeWaiters = [] }
          return (waiters, hello, ended, self.closeWaiters)
        }
    let error = StatecastError.connectionClosed("the socket closed with code \(code)")
    for waiter in waiters { waiter.resume(throwing: error) }
    hello?.resume(throwing: error)
    for subscription in ended { subscription.finish(reason: nil) }
    for waiter in closeWaiters { waiter.resume(returning: code) }
  }

  /// A patch did not follow the state: join again, which answers with a fresh snapshot.
  /// Its reply is not awaited (no waiter has its `ref`).
  private func requestSnapshot(of topic: String, on socket: WebSocketConnection) {
    let ref = lock.withLock {
      defer { nextRef += 1 }
      return nextRef
    }
    let join: JSON = ["op": "join", "ref": .int(ref), "topic": .string(topic)]
    socket.send(text: join.serialized())
  }
}
