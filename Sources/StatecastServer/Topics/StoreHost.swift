import Foundation
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
/// Thread safety: everything below `lock` is guarded by it. `stateDidChange` runs on
/// the store's executor; the other methods run on connection tasks. The lock is held
/// while frames are queued so that a snapshot and the patches after it reach every
/// member in revision order.
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
  private let closesWithLastMember: Bool
  private let embed: @Sendable (ClientAction) -> Action
  private let view: @Sendable (State) -> View
  private let canSend: @Sendable (JoinRequest, ClientAction) -> Bool
  private let sink: any FrameSink

  private let lock = NSLock()
  private var tracker = JSONViewTracker()
  private var started = false
  private var rev = 0
  private var history = PatchHistory(capacity: StoreHost.historyCapacity)
  private var members: [String: Member] = [:]
  private var observation: StoreObservation?

  /// How many patch frames a topic keeps for resumes.
  static var historyCapacity: Int { 64 }

  init(
    topic: String,
    store: Store<State, Action>,
    closesWithLastMember: Bool,
    embed: @escaping @Sendable (ClientAction) -> Action,
    view: @escaping @Sendable (State) -> View,
    canSend: @escaping @Sendable (JoinRequest, ClientAction) -> Bool,
    sink: any FrameSink
  ) async {
    self.topic = topic
    self.store = store
    self.closesWithLastMember = closesWithLastMember
    self.embed = embed
    self.view = view
    self.canSend = canSend
    self.sink = sink
    let observation = await store.observe { [weak self] state in self?.stateDidChange(state) }
    lock.withLock { self.observation = observation }
    // The first state seen starts the view at revision 0. If an event source changed
    // the state since `observe` returned, the observer has started it already with the
    // newer state, and this older one is ignored.
    stateDidChange(await store.state)
  }

  /// Runs on the store's executor after every reducer run (and once from `init`).
  private func stateDidChange(_ state: State) {
    let view = view(state)
    lock.lock()
    defer { lock.unlock() }
    do {
      let patch = try tracker.update(to: view)
      guard started else {
        started = true
        return
      }
      guard !patch.operations.isEmpty else { return }
      rev += 1
      let frame = ServerMessage.patch(topic: topic, rev: rev, patch: patch)
      history.append(frame, rev: rev)
      for (session, member) in members {
        guard let connection = member.connection, !member.needsSnapshot else { continue }
        if sink.send(frame, to: connection) == .congested {
          members[session]?.needsSnapshot = true
        }
      }
    } catch {
      FileHandle.standardError.write(Data("statecast: the view of topic \(topic) cannot be encoded: \(error)\n".utf8))
    }
  }

  func attach(_ request: JoinRequest, connection: ConnectionID) {
    lock.withLock {
      members[request.session] = Member(request: request, connection: connection)
      sink.send(snapshotFrame(), to: connection)
    }
  }

  func perform(_ action: JSON, from session: String) async -> ProtocolError? {
    let decoded: ClientAction
    do {
      decoded = try JSONValueDecoder().decode(ClientAction.self, from: action)
    } catch {
      return ProtocolError(.badAction, describeDecodingFailure(error, of: ClientAction.self))
    }
    guard let request = lock.withLock({ members[session]?.request }) else {
      return ProtocolError(.notJoined, "not joined to \(topic)")
    }
    guard canSend(request, decoded) else {
      return ProtocolError(.forbidden, "this action is not allowed on \(topic)")
    }
    await store.send(embed(decoded))
    return nil
  }

  func detach(_ session: String) {
    lock.withLock { members[session]?.connection = nil }
  }

  func reattach(_ session: String, connection: ConnectionID, after clientRev: Int?) {
    lock.withLock {
      guard members[session] != nil else { return }
      members[session]?.connection = connection
      members[session]?.needsSnapshot = false
      guard let clientRev else { return }
      if let missed = history.frames(after: clientRev), clientRev <= rev {
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

  func remove(_ session: String) async {
    let isEmpty = lock.withLock {
      members[session] = nil
      return members.isEmpty
    }
    if isEmpty && closesWithLastMember {
      await close()
    }
  }

  func close() async {
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
