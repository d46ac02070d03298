import Foundation
import StatecastJSON
import StatecastTransport
import Synchronization

/// The frame sink in front of the transport that lets a page's request join topics
/// like a socket does: the session a `GET` opens is on a *page connection*, an id the
/// transport never gives a socket, and the snapshots its joins queue are kept here for
/// the page to render instead of being sent anywhere. Every other frame goes on to the
/// transport untouched.
///
/// A live navigation joins a page's topics on the socket itself: while it does, the
/// socket is *tapped*, its snapshots kept here too (and sent as usual), so that the
/// page is rendered with the states the socket received.
///
/// Thread safety: the kept snapshots are locked; any thread may send.
final class PageFrameCapture: FrameSink, Sendable {
  private let base: any FrameSink
  private struct Kept: Sendable {
    /// Page connection → topic → the last snapshot queued to it.
    var snapshots: [ConnectionID: [String: RenderedTopic]] = [:]
    var nextSlot: UInt32 = 0
  }
  private let kept = Locked(Kept())
  /// How many sockets are tapped: frames to sockets take the lock only while one is.
  private let tapped = Atomic<Int>(0)

  init(base: any FrameSink) {
    self.base = base
  }

  /// The generation that marks page connections: the transport counts generations of a
  /// slot up from 1 and never reaches it, and its top bit is clear (a cluster's remote
  /// members have that bit set, see ``RemoteConnections``).
  static let pageGeneration = UInt32.max >> 1

  /// A page connection, ready to keep its snapshots.
  func openPageConnection() -> ConnectionID {
    kept.withLock { kept in
      kept.nextSlot &+= 1
      let id = ConnectionID(slot: kept.nextSlot, generation: Self.pageGeneration)
      kept.snapshots[id] = [:]
      return id
    }
  }

  /// The snapshots queued to `connection`, by topic; the page connection is closed.
  func closePageConnection(_ connection: ConnectionID) -> [String: RenderedTopic] {
    kept.withLock { $0.snapshots.removeValue(forKey: connection) ?? [:] }
  }

  /// The snapshot queued to the page connection for `topic`, if one came yet.
  func snapshot(_ topic: String, on connection: ConnectionID) -> RenderedTopic? {
    kept.withLock { $0.snapshots[connection]?[topic] }
  }

  /// Keeps the snapshots queued to the socket `connection` from now on (it must be
  /// untapped by the same caller).
  func tap(_ connection: ConnectionID) {
    kept.withLock { $0.snapshots[connection] = [:] }
    tapped.add(1, ordering: .sequentiallyConsistent)
  }

  /// The snapshots queued to a tapped socket since ``tap(_:)``; it is no longer tapped.
  func untap(_ connection: ConnectionID) -> [String: RenderedTopic] {
    tapped.subtract(1, ordering: .sequentiallyConsistent)
    return closePageConnection(connection)
  }

  func send(_ frame: OutboundFrame, to connection: ConnectionID) -> SendOutcome {
    guard connection.generation == Self.pageGeneration else {
      if tapped.load(ordering: .relaxed) > 0, kept.withLock({ $0.snapshots[connection] != nil }) {
        keep(frame, connection)
      }
      return base.send(frame, to: connection)
    }
    keep(frame, connection)
    return .queued
  }

  /// Keeps `frame` if it is a snapshot for a page connection or tapped socket.
  private func keep(_ frame: OutboundFrame, _ connection: ConnectionID) {
    guard let message = try? JSON(parsing: frame.payload), message["op"]?.stringValue == "snapshot",
      let topic = message["topic"]?.stringValue, let revision = message["rev"]?.int64Value,
      let state = message["state"]
    else { return }
    kept.withLock { kept in
      if kept.snapshots[connection] != nil {
        kept.snapshots[connection]?[topic] = RenderedTopic(revision: Int(revision), state: state)
      }
    }
  }

  func broadcast(_ frame: OutboundFrame, to connections: [ConnectionID]) -> BroadcastOutcome {
    // A patch reaching a page connection while its page renders is in the patch history
    // that the page's resume replays; it is not needed here.
    let sockets = connections.filter { $0.generation != Self.pageGeneration }
    if sockets.count == connections.count { return base.broadcast(frame, to: connections) }
    return base.broadcast(frame, to: sockets)
  }

  func close(_ connection: ConnectionID, code: UInt16, reason: String) {
    guard connection.generation != Self.pageGeneration else { return }
    base.close(connection, code: code, reason: reason)
  }
}
