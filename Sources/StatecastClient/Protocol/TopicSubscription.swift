import Foundation
public import StatecastJSON

/// One joined topic of a ``StatecastConnection``: the topic's view state as the server
/// streams it, rebuilt from the snapshot and every patch.
///
/// `states` yields the snapshot's state, then the state after each patch, each checked to
/// follow the previous revision by exactly one. On a gap (which a conforming server never
/// causes) the connection asks for a fresh snapshot instead of applying patches to a
/// wrong base, so the states never drift from the server's.
///
///     let counter = try await connection.join("counter")
///     try await connection.send(action: ["increment": [:]] as JSON, to: "counter")
///     for await state in counter.states { print(state["count"] ?? .null) }
public final class TopicSubscription: @unchecked Sendable {
  // Sendable: `current` and `closingReason` are guarded by `lock`; the rest is immutable.

  /// The topic's name.
  public let topic: String
  /// The state after the snapshot and after each patch, in order; ends when the server
  /// closes the topic, the client leaves it, or the connection is closed for good.
  public let states: AsyncStream<JSON>
  let continuation: AsyncStream<JSON>.Continuation
  private let lock = NSLock()
  private var current: (state: JSON, revision: Int64)?  // guarded by lock
  private var closingReason: String?  // guarded by lock

  init(topic: String) {
    self.topic = topic
    (states, continuation) = AsyncStream.makeStream(of: JSON.self)
  }

  /// The latest state, or `nil` before the snapshot.
  public var state: JSON? {
    lock.withLock { current?.state }
  }

  /// The revision of ``state``, or `nil` before the snapshot.
  public var revision: Int64? {
    lock.withLock { current?.revision }
  }

  /// Why the server ended the subscription (its `closed` message), if it did.
  public var closedReason: String? {
    lock.withLock { closingReason }
  }

  /// Takes a snapshot as the new state. Reader task.
  func applySnapshot(_ state: JSON, revision: Int64) {
    lock.withLock { current = (state, revision) }
    continuation.yield(state)
  }

  /// Applies the patch that leads to `revision`; `false` if it does not follow the
  /// current revision or does not apply (the caller then asks for a snapshot). Reader task.
  func applyPatch(_ patch: JSONPatch, revision: Int64) -> Bool {
    let next: JSON? = lock.withLock {
      guard let base = current, revision == base.revision + 1,
        let patched = try? patch.applied(to: base.state)
      else {
        return nil
      }
      current = (patched, revision)
      return patched
    }
    guard let next else { return false }
    continuation.yield(next)
    return true
  }

  /// Ends the stream of states. Any thread.
  func finish(reason: String?) {
    lock.withLock { closingReason = reason }
    continuation.finish()
  }
}
