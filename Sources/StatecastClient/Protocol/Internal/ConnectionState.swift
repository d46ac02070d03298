import Foundation
import StatecastJSON
import StatecastTransport

/// The mutable state of a ``StatecastConnection``: its current socket, session, pending
/// requests by `ref`, and subscriptions by topic. One lock guards it; continuations are
/// resumed outside the lock.
///
/// The socket's reader task is the only one that applies server messages, so a topic's
/// states are applied in the order the server sent them.
final class ConnectionState: Sendable {
  private struct State: Sendable {
    var current: WebSocketConnection?
    var session: String?
    var lastCloseCode: UInt16?
    var nextRef: Int64 = 1
    var pending: [Int64: CheckedContinuation<JSON, any Error>] = [:]
    var subscriptions: [String: TopicSubscription] = [:]
    var helloWaiter: CheckedContinuation<String, any Error>?
    var closedForGood = false
    var closeWaiters: [CheckedContinuation<UInt16, Never>] = []
  }

  private let state = Locked(State())

  var socket: WebSocketConnection? { state.withLock { $0.current } }
  var sessionID: String? { state.withLock { $0.session } }
  var closeCode: UInt16? { state.withLock { $0.lastCloseCode } }

  /// Makes `socket` the current one; `hello` is resumed with the session its `hello`
  /// names (or fails if it closes first).
  func adopt(_ socket: WebSocketConnection, hello: CheckedContinuation<String, any Error>) {
    state.withLock { state in
      state.current = socket
      state.lastCloseCode = nil
      state.helloWaiter = hello
    }
  }

  /// Allocates a `ref` for a request on the current socket and remembers its waiter;
  /// `nil` when there is no open socket.
  func register(_ continuation: CheckedContinuation<JSON, any Error>) -> (WebSocketConnection, Int64)? {
    state.withLock { state in
      guard let current = state.current, state.lastCloseCode == nil else { return nil }
      let ref = state.nextRef
      state.nextRef += 1
      state.pending[ref] = continuation
      return (current, ref)
    }
  }

  /// Fails the request `ref`, if it is still waiting.
  func fail(_ ref: Int64, _ error: any Error) {
    state.withLock { $0.pending.removeValue(forKey: ref) }?.resume(throwing: error)
  }

  func subscription(for topic: String) -> TopicSubscription {
    state.withLock { state in
      if let existing = state.subscriptions[topic] { return existing }
      let created = TopicSubscription(topic: topic)
      state.subscriptions[topic] = created
      return created
    }
  }

  func removeSubscription(_ topic: String) -> TopicSubscription? {
    state.withLock { $0.subscriptions.removeValue(forKey: topic) }
  }

  /// The last applied revision of every topic that has a state.
  func revisions() -> [(String, Int64)] {
    let all = state.withLock { state in Array(state.subscriptions.values) }
    return all.compactMap { subscription in subscription.revision.map { (subscription.topic, $0) } }
  }

  func topics() -> [String] {
    state.withLock { state in Array(state.subscriptions.keys) }
  }

  func setSession(_ id: String) {
    state.withLock { $0.session = id }
  }

  /// Resumes `waiter` with the close code once the current socket has closed.
  func onSocketClosed(_ waiter: CheckedContinuation<UInt16, Never>) {
    let code: UInt16? = state.withLock { state in
      if let lastCloseCode = state.lastCloseCode { return lastCloseCode }
      state.closeWaiters.append(waiter)
      return nil
    }
    if let code { waiter.resume(returning: code) }
  }

  /// The user closed the connection: subscriptions end when the socket does.
  func closing() {
    state.withLock { $0.closedForGood = true }
  }

  // MARK: - Reader task

  /// Applies one server message from `socket` (ignored if a newer socket replaced it).
  func handle(_ bytes: [UInt8], from socket: WebSocketConnection) {
    guard state.withLock({ $0.current === socket }) else { return }
    guard let message = try? JSON(parsing: bytes), let op = message["op"]?.stringValue else { return }
    switch op {
    case "hello":
      guard let id = message["session"]?.stringValue else { return }
      let waiter: CheckedContinuation<String, any Error>? = state.withLock { state in
        if state.session == nil { state.session = id }
        defer { state.helloWaiter = nil }
        return state.helloWaiter
      }
      waiter?.resume(returning: id)
    case "reply":
      guard let ref = message["ref"]?.int64Value,
        let waiter = state.withLock({ $0.pending.removeValue(forKey: ref) })
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
        let snapshot = message["state"], let subscription = state.withLock({ $0.subscriptions[topic] })
      else { return }
      subscription.applySnapshot(snapshot, revision: revision)
    case "patch":
      guard let topic = message["topic"]?.stringValue, let revision = message["rev"]?.int64Value,
        let operations = message["ops"], let subscription = state.withLock({ $0.subscriptions[topic] })
      else { return }
      let applied =
        (try? JSONPatch(json: operations)).map { subscription.applyPatch($0, revision: revision) } ?? false
      if !applied { requestSnapshot(of: topic, on: socket) }
    case "closed":
      guard let topic = message["topic"]?.stringValue else { return }
      state.withLock { $0.subscriptions.removeValue(forKey: topic) }?.finish(
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
        state.withLock { state in
          guard state.current === socket else { return ([], nil, [], []) }
          state.lastCloseCode = code
          let waiters = Array(state.pending.values)
          state.pending = [:]
          let hello = state.helloWaiter
          state.helloWaiter = nil
          var ended: [TopicSubscription] = []
          if state.closedForGood {
            ended = Array(state.subscriptions.values)
            state.subscriptions = [:]
          }
          defer { state.closeWaiters = [] }
          return (waiters, hello, ended, state.closeWaiters)
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
    let ref = state.withLock { state in
      defer { state.nextRef += 1 }
      return state.nextRef
    }
    let join: JSON = ["op": "join", "ref": .int(ref), "topic": .string(topic)]
    socket.send(text: join.serialized())
  }
}
