import Foundation
import Logging
import Statecast
import StatecastJSON

/// Hosts one store as a topic: turns each new state into a patch frame, once, and
/// queues that frame to every member.
///
/// The data path of an action: ``perform(_:from:)`` decodes the client action and
/// awaits `store.send`; the store runs the reducer and, still on its own executor,
/// calls ``stateDidChange(_:)``, which projects the view, diffs it against the last one
/// and queues the patch. So when `perform` returns the patch is already queued ahead of
/// the action's reply, as PROTOCOL.md promises.
///
/// Thread safety: everything below `lock` is guarded by it. `stateDidChange` runs on the
/// store's executor; the other methods run on connection tasks. The lock is held while
/// the view is encoded and diffed (the tracker edits its last document in place only
/// when no other copy of it is alive, so snapshots are serialized from the tracker's own
/// document under the same lock rather than from a copy kept aside), and while frames
/// are queued, so that a snapshot and the patches after it reach every member in
/// revision order.
final class StoreHost<State: Sendable, Action: Sendable, ClientAction: Decodable & Sendable, View: Encodable & Sendable>:
  TopicHost, @unchecked Sendable
{
  private struct Member {
    var request: JoinRequest
    var connection: ConnectionID?
    /// Patches were skipped because the socket was congested: it needs a snapshot.
    var needsSnapshot = false
  }

  let topic: String
  private let store: Store<State, Action>
  private let embed: @Sendable (ClientAction) -> Action
  private let view: @Sendable (State) -> View
  private let canSend: @Sendable (JoinRequest, ClientAction, JSON) -> Bool
  private let sink: any FrameSink
  private let logger: Logger

  private let lock = NSLock()
  private var tracker = JSONViewTracker()
  private var started = false
  private var rev = 0
  private var history = PatchHistory(capacity: StoreHost.historyCapacity)
  private var members: [String: Member] = [:]
  private var isClosed = false
  private var observation: StoreObservation?

  /// How many patch frames a topic keeps for resumes.
  static var historyCapacity: Int { 64 }

  init(
    topic: String,
    store: Store<State, Action>,
    embed: @escaping @Sendable (ClientAction) -> Action,
    view: @escaping @Sendable (State) -> View,
    canSend: @escaping @Sendable (JoinRequest, ClientAction, JSON) -> Bool,
    sink: any FrameSink,
    logger: Logger = Logger(label: LogSubsystem.stores.label)
  ) async {
    self.topic = topic
    self.store = store
    self.embed = embed
    self.view = view
    self.canSend = canSend
    self.sink = sink
    self.logger = logger
    // `includingCurrent` encodes the current state as revision 0 atomically with the
    // registration, so no state change can slip in between.
    let observation = await store.observe(includingCurrent: true) { [weak self] state in
      self?.stateDidChange(state)
    }
    lock.withLock { self.observation = observation }
  }

  /// Runs on the store's executor after every reducer run, and once for the state the
  /// topic starts from.
  private func stateDidChange(_ state: State) {
    let view = view(state)
    lock.withLock {
      let patch: JSONPatch
      do {
        patch = try tracker.update(to: view)
      } catch {
        logger.error("the view of a topic cannot be encoded", metadata: ["topic": "\(topic)", "error": "\(error)"])
        return
      }
      guard started else {
        started = true
        return
      }
      guard !patch.isEmpty else { return }
      rev += 1
      let frame = ServerMessage.patch(topic: topic, rev: rev, patch: patch)
      history.append(frame, rev: rev)
      // Encode once, send to many: one frame, queued for every member in one go.
      let receivers = members.compactMap { session, member -> (session: String, connection: ConnectionID)? in
        guard let connection = member.connection, !member.needsSnapshot else { return nil }
        return (session, connection)
      }
      if receivers.count == 1 {
        if sink.send(frame, to: receivers[0].connection) == .congested {
          members[receivers[0].session]?.needsSnapshot = true
        }
      } else if !receivers.isEmpty {
        let congested = Set(sink.broadcast(frame, to: receivers.map(\.connection)).congested)
        for receiver in receivers where congested.contains(receiver.connection) {
          members[receiver.session]?.needsSnapshot = true
        }
      }
    }
  }

  func attach(_ request: JoinRequest, connection: ConnectionID) -> Bool {
    lock.withLock {
      guard !isClosed else { return false }
      members[request.session] = Member(request: request, connection: connection)
      sink.send(snapshotFrame(), to: connection)
      return true
    }
  }

  func perform(_ action: JSON, from session: String) async throws(ProtocolError) {
    let decoded: ClientAction
    do {
      decoded = try JSONValueDecoder().decode(ClientAction.self, from: action)
    } catch {
      throw ProtocolError(.badAction, describeDecodingFailure(error, of: ClientAction.self))
    }
    guard let request = lock.withLock({ members[session]?.request }) else {
      throw ProtocolError(.notJoined, "not joined to \(topic)")
    }
    guard canSend(request, decoded, action) else {
      throw ProtocolError(.forbidden, "this action is not allowed on \(topic)")
    }
    await store.send(embed(decoded))
  }

  func isBehind(_ session: String) -> Bool {
    lock.withLock { members[session]?.needsSnapshot ?? false }
  }

  func detach(_ session: String, from connection: ConnectionID) {
    lock.withLock {
      guard members[session]?.connection == connection else { return }
      members[session]?.connection = nil
    }
  }

  func reattach(_ session: String, connection: ConnectionID, after clientRev: Int?) {
    lock.withLock {
      guard members[session] != nil else { return }
      members[session]?.connection = connection
      members[session]?.needsSnapshot = false
      guard let clientRev else { return }
      if clientRev <= rev, let missed = history.frames(after: clientRev) {
        for frame in missed { sink.send(frame, to: connection) }
      } else {
        sink.send(snapshotFrame(), to: connection)
      }
    }
  }

  func resync(_ session: String) {
    lock.withLock {
      guard let member = members[session], member.needsSnapshot, let connection = member.connection else { return }
      members[session]?.needsSnapshot = false
      sink.send(snapshotFrame(), to: connection)
    }
  }

  func remove(_ session: String) async -> Bool {
    let closes = lock.withLock {
      members[session] = nil
      guard members.isEmpty, !isClosed else { return false }
      isClosed = true
      return true
    }
    if closes { await closeStore() }
    return closes
  }

  func close() async {
    let closes = lock.withLock {
      defer { isClosed = true }
      return !isClosed
    }
    if closes { await closeStore() }
  }

  private func closeStore() async {
    let observation = lock.withLock {
      defer { self.observation = nil }
      return self.observation
    }
    observation?.cancel()
    await store.close()
  }

  /// A snapshot of the current view at the current revision. Call with `lock` held.
  private func snapshotFrame() -> OutboundFrame {
    ServerMessage.snapshot(topic: topic, rev: rev, state: tracker.current)
  }
}
