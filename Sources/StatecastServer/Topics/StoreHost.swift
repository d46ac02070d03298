import Foundation
import Logging
import Statecast
import StatecastJSON

/// Hosts one store as a topic: turns each new state into patch frames, once per distinct
/// view, and queues each frame to every member who sees that view.
///
/// The data path of an action: ``perform(_:from:)`` decodes the client action and
/// awaits `store.send`; the store runs the reducer and, still on its own executor,
/// calls ``stateDidChange(_:)``, which projects the view, diffs it against the last one
/// and queues the patch. So when `perform` returns the patch is already queued ahead of
/// the action's reply, as PROTOCOL.md promises.
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
/// Thread safety: everything below `lock` is guarded by it. `stateDidChange` runs on the
/// store's executor; the other methods run on connection tasks. The lock is held while
/// views are encoded and diffed and while frames are queued, so that a snapshot and the
/// patches after it reach every member in revision order.
final class StoreHost<
  State: Sendable, Action: Sendable, ClientAction: Decodable & Sendable, View: Encodable & Sendable
>:
  TopicHost, @unchecked Sendable
{
  private struct Member {
    var request: JoinRequest
    var connection: ConnectionID?
    /// Patches were skipped because the socket was congested: it needs a snapshot.
    var needsSnapshot = false
    /// What the member published about itself (an object), and when, for presence.
    var meta: JSON = .object(JSONObject())
    var metaSequence = 0
    /// The order members joined in, so that presence lists them stably.
    var joinOrder: Int
    var viewer: Viewer { request.viewer }
  }

  let topic: String
  private let store: Store<State, Action>
  private let embed: @Sendable (ClientAction, Viewer) -> Action
  private let view: @Sendable (State, Viewer) -> View
  private let viewDependsOnViewer: Bool
  private let showsPresence: Bool
  private let canSend: @Sendable (JoinRequest, ClientAction, JSON) -> Bool
  private let sink: any FrameSink
  private let saveState: (@Sendable (State) -> JSON?)?
  private let isNewRoom: (@Sendable () -> Bool)?
  private let appliedKeys: AppliedKeys
  private let initialRevision: Int
  private let historyStartsKnown: Bool
  private let logger: Logger

  private let lock = NSLock()
  private var state: State?
  /// How many times `state` changed: a periodic session save skips a per-tab store
  /// whose count is the one it saved (the view's revision would miss hidden state).
  private var stateChanges = 0
  /// Viewer id (or `""` when the view is the same for everyone) → channel.
  private var channels: [String: ViewChannel] = [:]
  private var members: [String: Member] = [:]
  private var presence: JSON = .array([])
  private var joins = 0
  private var metaUpdates = 0
  /// When a `meta` change was last published, and whether a publish is scheduled for
  /// the end of the interval (``Presence/publishInterval``).
  private var lastMetaPublish: ContinuousClock.Instant?
  private var metaPublishScheduled = false
  private var isClosed = false
  /// Whether a first change of this new room has been counted against a quota.
  private var newRoomClaimed = false
  /// Closing the store (cancelling its effects, finishing a durable store's commits),
  /// once started; awaited by whoever needs the store gone (see ``waitUntilClosed()``).
  private var closing: Task<Void, Never>?
  private var observation: StoreObservation?
  /// Set once by an uploading feature's route, before the host is shared.
  var uploads: TopicUploads?

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
    if !viewDependsOnViewer {
      channels[""] = ViewChannel(
        viewer: .anonymous, revision: revision, historyCapacity: Self.historyCapacity,
        startsKnown: historyStartsKnown)
    }
    // `includingCurrent` hands over the current state atomically with the
    // registration, so no state change can slip in between.
    let observation = await store.observe(includingCurrent: true) { [weak self] state in
      self?.stateDidChange(state)
    }
    lock.withLock { self.observation = observation }
    _ = store.events.listen { [weak self] event in self?.deliver(event) }
  }

  /// Queues a hook event to the members that joined asking for events (all, or the tabs
  /// of the event's viewer) and are keeping up. It is kept nowhere: never replayed.
  private func deliver(_ event: HookEvent) {
    guard let frame = ServerMessage.event(topic: topic, event) else {
      return logger.warning(
        "a hook event was dropped", metadata: ["topic": "\(topic)", "event": "\(event.name)"])
    }
    lock.withLock {
      for member in members.values where member.request.receivesEvents && !member.needsSnapshot {
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
    lock.withLock {
      self.state = state
      stateChanges += 1
      for key in Array(channels.keys) {
        guard let viewer = channels[key]?.viewer else { continue }
        let view = view(state, viewer)
        guard let patch = channels[key]?.update(with: view, topic: topic, logger: logger) else { continue }
        publish(patch, on: key)
      }
    }
  }

  /// Queues `patch` as the channel's next revision to its members who are keeping up.
  /// Call with `lock` held.
  private func publish(_ patch: JSONPatch, on key: String, excluding excluded: String? = nil) {
    guard var channel = channels[key] else { return }
    let frame = channel.record(patch, topic: topic)
    channels[key] = channel
    // Encode once, send to many: one frame, queued for every receiver in one go.
    var receivers: [(session: String, connection: ConnectionID)] = []
    for session in channel.sessions where session != excluded {
      guard let member = members[session], let connection = member.connection, !member.needsSnapshot else {
        continue
      }
      receivers.append((session, connection))
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

  // MARK: Members

  func attach(_ request: JoinRequest, connection: ConnectionID) -> Bool {
    lock.withLock {
      guard !isClosed, let state else { return false }
      let session = request.session
      if members[session] == nil {
        joins += 1
        members[session] = Member(request: request, connection: connection, joinOrder: joins)
      } else {
        members[session]?.request = request
        members[session]?.connection = connection
        members[session]?.needsSnapshot = false
      }
      let key = channelKey(for: request.viewer)
      if channels[key] == nil {
        var channel = ViewChannel(
          viewer: request.viewer, revision: initialRevision, historyCapacity: Self.historyCapacity,
          startsKnown: historyStartsKnown)
        _ = channel.update(with: view(state, request.viewer), topic: topic, logger: logger)
        channels[key] = channel
      }
      channels[key]?.sessions.insert(session)
      presenceDidChange(excluding: session)
      sink.send(snapshotFrame(key), to: connection)
      return true
    }
  }

  func memberSockets() -> [(request: JoinRequest, connection: ConnectionID?)] {
    lock.withLock { members.values.map { ($0.request, $0.connection) } }
  }

  func detach(_ session: String, from connection: ConnectionID) {
    lock.withLock {
      guard members[session]?.connection == connection else { return }
      members[session]?.connection = nil
      presenceDidChange(excluding: session)
    }
  }

  func reattach(_ session: String, connection: ConnectionID, after clientRev: Int?) {
    lock.withLock {
      guard let member = members[session] else { return }
      members[session]?.connection = connection
      members[session]?.needsSnapshot = false
      let key = channelKey(for: member.viewer)
      // The others see this member online again; its own catch-up below includes that.
      presenceDidChange(excluding: session)
      guard let clientRev, let channel = channels[key] else { return }
      if clientRev <= channel.revision, let missed = channel.history.frames(after: clientRev) {
        for frame in missed { sink.send(frame, to: connection) }
      } else {
        sink.send(snapshotFrame(key), to: connection)
      }
    }
  }

  func refresh(_ session: String) {
    lock.withLock {
      guard let member = members[session], let connection = member.connection else { return }
      members[session]?.needsSnapshot = false
      sink.send(snapshotFrame(channelKey(for: member.viewer)), to: connection)
    }
  }

  @discardableResult func resync(_ session: String) -> Bool {
    lock.withLock {
      guard let member = members[session], member.needsSnapshot, let connection = member.connection else {
        return false
      }
      members[session]?.needsSnapshot = false
      sink.send(snapshotFrame(channelKey(for: member.viewer)), to: connection)
      return true
    }
  }

  func remove(_ session: String) async -> Bool {
    let closes = lock.withLock {
      guard let member = members.removeValue(forKey: session) else { return false }
      let key = channelKey(for: member.viewer)
      channels[key]?.sessions.remove(session)
      if viewDependsOnViewer, channels[key]?.sessions.isEmpty == true { channels[key] = nil }
      presenceDidChange(excluding: nil)
      guard members.isEmpty, !isClosed else { return false }
      beginClosing()
      return true
    }
    await waitUntilClosed()
    return closes
  }

  func close() async {
    lock.withLock {
      if !isClosed { beginClosing() }
    }
    await waitUntilClosed()
  }

  func waitUntilClosed() async {
    await lock.withLock { closing }?.value
  }

  /// Marks the topic closed and starts closing the store, in one step under `lock`, so
  /// that whoever finds it closed also finds what to wait for.
  private func beginClosing() {
    isClosed = true
    let (observation, store) = (self.observation, self.store)
    self.observation = nil
    closing = Task {
      observation?.cancel()
      await store.close()
    }
  }

  // MARK: Actions and presence

  /// The new-room quota is the registry's to count here (`creator` is unused).
  func perform(_ action: JSON, key: String?, from session: String, creator: RoomCreator?)
    async throws(ProtocolError)
  {
    try await appliedKeys.perform(key: key) { () async throws(ProtocolError) in
      try await apply(action, key: key, from: session)
    }
  }

  private func apply(_ action: JSON, key: String?, from session: String) async throws(ProtocolError) {
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
    let task = await store.send(embed(decoded, request.viewer), idempotencyKey: key)
    do {
      try await task.committed()
    } catch {
      logger.error("a change could not be stored", metadata: ["topic": "\(topic)", "error": "\(error)"])
      throw ProtocolError(.unavailable, "the change could not be stored; nothing changed, try again later")
    }
  }

  func joinParams(of session: String) -> JSON? {
    lock.withLock { members[session]?.request.params }
  }

  func savedState() -> (state: JSON, revision: Int)? {
    lock.withLock {
      guard let saveState, let state, let encoded = saveState(state) else { return nil }
      return (encoded, channels.values.first?.revision ?? initialRevision)
    }
  }

  func claimsNewRoom() -> Bool {
    guard let isNewRoom, isNewRoom() else { return false }
    return lock.withLock {
      guard !newRoomClaimed else { return false }
      newRoomClaimed = true
      return true
    }
  }

  func unclaimNewRoom() {
    lock.withLock { newRoomClaimed = false }
  }

  func savedStateVersion() -> Int? {
    lock.withLock { saveState == nil ? nil : stateChanges }
  }

  func setPresence(_ meta: JSON, from session: String) throws(ProtocolError) {
    let refusal = lock.withLock { () -> ProtocolError? in
      guard members[session] != nil else { return ProtocolError(.notJoined, "not joined to \(topic)") }
      guard showsPresence else { return ProtocolError(.badMessage, "\(topic) has no presence") }
      metaUpdates += 1
      members[session]?.meta = meta
      members[session]?.metaSequence = metaUpdates
      publishMetaChange()
      return nil
    }
    if let refusal { throw refusal }
  }

  /// Publishes a `meta` change now if none was published within the interval; else
  /// once the interval is over, together with every change made meanwhile (a member
  /// sending presence as fast as it can costs the others ten patches a second, not one
  /// per message). Call with `lock` held.
  private func publishMetaChange() {
    guard !metaPublishScheduled else { return }
    let now = ContinuousClock.now
    if let last = lastMetaPublish, now - last < Presence.publishInterval {
      metaPublishScheduled = true
      let wait = Presence.publishInterval - (now - last)
      // Unowned by the store's task group on purpose: it only takes the lock once, and
      // finds the topic closed if it has gone meanwhile.
      Task { [weak self] in
        try? await Task.sleep(for: wait)
        self?.publishScheduledMeta()
      }
      return
    }
    lastMetaPublish = now
    presenceDidChange(excluding: nil)
  }

  private func publishScheduledMeta() {
    lock.withLock {
      guard metaPublishScheduled else { return }
      metaPublishScheduled = false
      guard !isClosed else { return }
      lastMetaPublish = ContinuousClock.now
      presenceDidChange(excluding: nil)
    }
  }

  func isBehind(_ session: String) -> Bool {
    lock.withLock { members[session]?.needsSnapshot ?? false }
  }

  /// Recomputes `/presence` and queues the change to every member (but `excluded`,
  /// who gets a snapshot or catch-up right after). Call with `lock` held.
  private func presenceDidChange(excluding excluded: String?) {
    guard showsPresence else { return }
    let updated = Presence.entries(
      members.values.map {
        ($0.viewer, $0.connection != nil, $0.meta, $0.metaSequence, $0.joinOrder, $0.request.address)
      })
    let patch = JSONPatch.diff(from: presence, to: updated)
    presence = updated
    guard !patch.isEmpty else { return }
    let prefixed = patch.prefixed(by: "presence")
    for key in Array(channels.keys) { publish(prefixed, on: key, excluding: excluded) }
  }

  // MARK: Frames

  private func channelKey(for viewer: Viewer) -> String {
    viewDependsOnViewer ? viewer.id : ""
  }

  /// A snapshot of the channel's view at its current revision. Call with `lock` held.
  private func snapshotFrame(_ key: String) -> OutboundFrame {
    let channel = channels[key]!
    return ServerMessage.snapshot(
      topic: topic, rev: channel.revision, state: channel.tracker.current,
      presence: showsPresence ? presence : nil)
  }
}
