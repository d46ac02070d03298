import Foundation
import Logging
import Statecast
import StatecastJSON
import StatecastTransport

/// Hosts one store as a topic: turns each new state into patch frames, once per distinct
/// view, and queues each frame to every member who sees that view.
///
/// The data path of an action: ``perform(_:key:from:creator:)`` decodes the client
/// action and awaits `store.send`; the store runs the reducer and, still on its own
/// executor, calls ``stateDidChange(_:)``, which projects the view, diffs it against the
/// last one and queues the patch. So when `perform` returns the patch is already queued
/// ahead of the action's reply, as PROTOCOL.md promises.
///
/// Views: when the route's view is the same for everyone, there is one ``ViewChannel``
/// and a change is encoded and diffed once, the same bytes going to every member. When
/// the view depends on the viewer, each distinct viewer has a channel of its own (one
/// diff per viewer, shared by that viewer's tabs), and no frame of one channel is ever
/// queued to a member of another. Each channel has its own revisions.
///
/// Presence (shared topics): who is in the topic, with how many tabs, online or waiting
/// for a reconnect, and what each published about themselves, is kept beside the store
/// and shown to every member under `/presence` of the topic's state. It never enters the
/// store: it is not journaled and not saved.
///
/// Thread safety: what changes lives in ``Guarded``, behind one lock. `stateDidChange`
/// runs on the store's executor; the other methods run on connection tasks. The lock is
/// held while views are encoded and diffed and while frames are queued, so that a
/// snapshot and the patches after it reach every member in revision order.
final class StoreHost<
  State: Sendable, Action: Sendable, ClientAction: Decodable & Sendable, View: Encodable & Sendable
>: TopicHost {
  let topic: String
  let store: Store<State, Action>
  let embed: @Sendable (ClientAction, Viewer) -> Action
  let view: @Sendable (State, Viewer) -> View
  let viewDependsOnViewer: Bool
  let showsPresence: Bool
  let canSend: @Sendable (JoinRequest, ClientAction, JSON) -> Bool
  let sink: any FrameSink
  let saveState: (@Sendable (State) -> JSON?)?
  let isNewRoom: (@Sendable () -> Bool)?
  let appliedKeys: AppliedKeys
  let initialRevision: Int
  let historyStartsKnown: Bool
  let logger: Logger
  /// The members, the channels and presence: see ``Guarded``.
  let guarded: Locked<Guarded>

  /// What the topic accepts as uploads; set once by an uploading feature's route,
  /// before the host is shared.
  var uploads: TopicUploads? {
    get { guarded.withLock { $0.uploads } }
    set { guarded.withLock { $0.uploads = newValue } }
  }

  /// How many patch frames each channel keeps for resumes.
  static var historyCapacity: Int { 64 }

  /// - Parameters:
  ///   - viewDependsOnViewer: whether `view` differs between viewers; if not, it is
  ///     called once per change (with ``Viewer/anonymous``) for every member.
  ///   - showsPresence: whether the topic's state carries `/presence` (shared topics).
  ///   - revision: the revision the topic's state starts at (a restored topic continues
  ///     its stored revisions).
  init(
    topic: String,
    store: Store<State, Action>,
    embed: @escaping @Sendable (ClientAction, Viewer) -> Action,
    view: @escaping @Sendable (State, Viewer) -> View,
    viewDependsOnViewer: Bool = false,
    showsPresence: Bool = false,
    canSend: @escaping @Sendable (JoinRequest, ClientAction, JSON) -> Bool,
    sink: any FrameSink,
    revision: Int = 0,
    historyStartsKnown: Bool = true,
    saveState: (@Sendable (State) -> JSON?)? = nil,
    isNewRoom: (@Sendable () -> Bool)? = nil,
    appliedKeys: [String] = [],
    logger: Logger = Logger(label: LogSubsystem.stores.label)
  ) async {
    self.topic = topic
    self.store = store
    self.embed = embed
    self.view = view
    self.viewDependsOnViewer = viewDependsOnViewer
    self.showsPresence = showsPresence
    self.canSend = canSend
    self.sink = sink
    self.logger = logger
    self.saveState = saveState
    self.isNewRoom = isNewRoom
    self.appliedKeys = AppliedKeys(
      restored: appliedKeys, capacity: showsPresence ? AppliedKeys.sharedCapacity : AppliedKeys.ownCapacity)
    self.initialRevision = revision
    self.historyStartsKnown = historyStartsKnown
    var guarded = Guarded()
    if !viewDependsOnViewer {
      guarded.channels[""] = ViewChannel(
        viewer: .anonymous, revision: revision, historyCapacity: Self.historyCapacity,
        startsKnown: historyStartsKnown)
    }
    self.guarded = Locked(guarded)
    // `includingCurrent` hands over the current state atomically with the
    // registration, so no state change can slip in between.
    let observation = await store.observe(includingCurrent: true) { [weak self] state in
      self?.stateDidChange(state)
    }
    self.guarded.withLock { $0.observation = observation }
    _ = store.events.listen { [weak self] event in self?.deliver(event) }
  }

  /// Queues a hook event to the members that joined asking for events (all, or the tabs
  /// of the event's viewer) and are keeping up. It is kept nowhere: never replayed.
  private func deliver(_ event: HookEvent) {
    guard let frame = ServerMessage.event(topic: topic, event) else {
      return logger.warning(
        "a hook event was dropped", metadata: ["topic": "\(topic)", "event": "\(event.name)"])
    }
    guarded.withLock { guarded in
      for member in guarded.members.values where member.request.receivesEvents && !member.needsSnapshot {
        guard let connection = member.connection, event.viewer.map({ $0.id == member.viewer.id }) ?? true
        else {
          continue
        }
        sink.send(frame, to: connection)
      }
    }
  }

  // MARK: State changes

  /// Runs on the store's executor after every reducer run, and once for the state the
  /// topic starts from.
  private func stateDidChange(_ state: State) {
    guarded.withLock { guarded in
      guarded.stateChanges += 1
      // By index, not by a copy of the keys: no allocation per change, and each
      // channel is updated in place.
      var index = guarded.channels.startIndex
      while index != guarded.channels.endIndex {
        let viewer = guarded.channels.values[index].viewer
        if let patch = guarded.channels.values[index].update(
          with: view(state, viewer), topic: topic, logger: logger)
        {
          publish(patch, at: index, in: &guarded)
        }
        guarded.channels.formIndex(after: &index)
      }
    }
  }

  /// Queues `patch` as the next revision of the channel at `index` to its members who
  /// are keeping up (but `excluded`). Call with the lock held.
  func publish(
    _ patch: JSONPatch, at index: [String: ViewChannel].Index, excluding excluded: String? = nil,
    in guarded: inout Guarded
  ) {
    // Recorded in place: a copy of the channel would copy its history on every patch.
    let frame = guarded.channels.values[index].record(patch, topic: topic)
    let sessions = guarded.channels.values[index].sessions
    // Encode once, send to many: one frame, queued for every receiver in one go. A
    // per-tab topic has one receiver, queued without gathering a list.
    var first: (session: String, connection: ConnectionID)?
    var others: [(session: String, connection: ConnectionID)] = []
    for session in sessions where session != excluded {
      guard let member = guarded.members[session], let connection = member.connection, !member.needsSnapshot
      else { continue }
      if first == nil { first = (session, connection) } else { others.append((session, connection)) }
    }
    guard let first else { return }
    if others.isEmpty {
      if sink.send(frame, to: first.connection) == .congested {
        guarded.members[first.session]?.needsSnapshot = true
      }
      return
    }
    let receivers = [first] + others
    let congested = Set(sink.broadcast(frame, to: receivers.map(\.connection)).congested)
    for receiver in receivers where congested.contains(receiver.connection) {
      guarded.members[receiver.session]?.needsSnapshot = true
    }
  }

  // MARK: Frames

  func channelKey(for viewer: Viewer) -> String {
    viewDependsOnViewer ? viewer.id : ""
  }

  /// A snapshot of the channel's view at its current revision. Call with the lock held.
  func snapshotFrame(_ key: String, in guarded: Guarded) -> OutboundFrame {
    let channel = guarded.channels[key]!
    return ServerMessage.snapshot(
      topic: topic, rev: channel.revision, state: channel.tracker.current,
      presence: showsPresence ? guarded.presence : nil)
  }
}
