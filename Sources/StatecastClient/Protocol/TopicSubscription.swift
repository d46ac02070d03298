import Foundation
public import StatecastJSON
import StatecastTransport

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
public final class TopicSubscription: Sendable {

  /// The topic's name.
  public let topic: String
  /// The state after the snapshot and after each patch, in order; ends when the server
  /// closes the topic, the client leaves it, or the connection is closed for good.
  public let states: AsyncStream<JSON>
  let continuation: AsyncStream<JSON>.Continuation
  private struct Mirror: Sendable {
    var current: (state: JSON, revision: Int64)?
    var closingReason: String?
  }
  private let mirror = Locked(Mirror())

  init(topic: String) {
    self.topic = topic
    (states, continuation) = AsyncStream.makeStream(of: JSON.self)
  }

  /// The latest state, or `nil` before the snapshot.
  public var state: JSON? {
    mirror.withLock { $0.current?.state }
  }

  /// The revision of ``state``, or `nil` before the snapshot.
  public var revision: Int64? {
    mirror.withLock { $0.current?.revision }
  }

  /// Why the server ended the subscription (its `closed` message), if it did.
  public var closedReason: String? {
    mirror.withLock { $0.closingReason }
  }

  /// Takes a snapshot as the new state. Reader task.
  func applySnapshot(_ state: JSON, revision: Int64) {
    mirror.withLock { $0.current = (state, revision) }
    continuation.yield(state)
  }

  /// Applies the patch that leads to `revision`; `false` if it does not follow the
  /// current revision or does not apply (the caller then asks for a snapshot). Reader task.
  func applyPatch(_ patch: JSONPatch, revision: Int64) -> Bool {
    let next: JSON? = mirror.withLock { mirror in
      guard let base = mirror.current, revision == base.revision + 1,
        let patched = try? patch.applied(to: base.state)
      else {
        return nil
      }
      mirror.current = (patched, revision)
      return patched
    }
    guard let next else { return false }
    continuation.yield(next)
    return true
  }

  /// Ends the stream of states. Any thread.
  func finish(reason: String?) {
    mirror.withLock { $0.closingReason = reason }
    continuation.finish()
  }
}
