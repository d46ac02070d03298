import Logging
import Statecast
import StatecastJSON

/// Members joining, leaving, dropping and resuming, and the store's closing when the
/// last one leaves.
extension StoreHost {
  /// Runs on the store's executor (``Store/withState(_:)``), so that a new channel's first
  /// view and the patches after it follow each other with no change in between.
  func attach(_ request: JoinRequest, connection: ConnectionID) async -> Bool {
    await store.withState { state in self.attach(request, connection: connection, state: state) }
  }

  private func attach(_ request: JoinRequest, connection: ConnectionID, state: State) -> Bool {
    guarded.withLock { guarded in
      guard !guarded.isClosed else { return false }
      let session = request.session
      if guarded.members[session] == nil {
        guarded.joins += 1
        guarded.members[session] = Member(request: request, connection: connection, joinOrder: guarded.joins)
      } else {
        guarded.members[session]?.request = request
        guarded.members[session]?.connection = connection
        guarded.members[session]?.needsSnapshot = false
      }
      let key = channelKey(for: request.viewer)
      if guarded.channels[key] == nil {
        var channel = ViewChannel(
          viewer: request.viewer, revision: initialRevision, historyCapacity: Self.historyCapacity,
          startsKnown: historyStartsKnown)
        _ = channel.update(with: view(state, request.viewer), topic: topic, logger: logger)
        guarded.channels[key] = channel
      }
      guarded.channels[key]?.sessions.insert(session)
      presenceDidChange(excluding: session, in: &guarded)
      sink.send(snapshotFrame(key, in: guarded), to: connection)
      return true
    }
  }

  func memberSockets() -> [(request: JoinRequest, connection: ConnectionID?)] {
    guarded.withLock { guarded in guarded.members.values.map { ($0.request, $0.connection) } }
  }

  func detach(_ session: String, from connection: ConnectionID) {
    guarded.withLock { guarded in
      guard guarded.members[session]?.connection == connection else { return }
      guarded.members[session]?.connection = nil
      presenceDidChange(excluding: session, in: &guarded)
    }
  }

  func reattach(_ session: String, connection: ConnectionID, after clientRev: Int?) {
    guarded.withLock { guarded in
      guard let member = guarded.members[session] else { return }
      guarded.members[session]?.connection = connection
      guarded.members[session]?.needsSnapshot = false
      let key = channelKey(for: member.viewer)
      // The others see this member online again; its own catch-up below includes that.
      presenceDidChange(excluding: session, in: &guarded)
      guard let clientRev, let channel = guarded.channels[key] else { return }
      if clientRev <= channel.revision, let missed = channel.history.frames(after: clientRev) {
        for frame in missed { sink.send(frame, to: connection) }
      } else {
        sink.send(snapshotFrame(key, in: guarded), to: connection)
      }
    }
  }

  func refresh(_ session: String) {
    guarded.withLock { guarded in
      guard let member = guarded.members[session], let connection = member.connection else { return }
      guarded.members[session]?.needsSnapshot = false
      sink.send(snapshotFrame(channelKey(for: member.viewer), in: guarded), to: connection)
    }
  }

  @discardableResult func resync(_ session: String) -> Bool {
    guarded.withLock { guarded in
      guard let member = guarded.members[session], member.needsSnapshot, let connection = member.connection
      else {
        return false
      }
      guarded.members[session]?.needsSnapshot = false
      sink.send(snapshotFrame(channelKey(for: member.viewer), in: guarded), to: connection)
      return true
    }
  }

  func isBehind(_ session: String) -> Bool {
    guarded.withLock { $0.members[session]?.needsSnapshot ?? false }
  }

  func joinParams(of session: String) -> JSON? {
    guarded.withLock { $0.members[session]?.request.params }
  }

  func remove(_ session: String) async -> Bool {
    let closes = guarded.withLock { guarded in
      guard let member = guarded.members.removeValue(forKey: session) else { return false }
      let key = channelKey(for: member.viewer)
      guarded.channels[key]?.sessions.remove(session)
      if viewDependsOnViewer, guarded.channels[key]?.sessions.isEmpty == true { guarded.channels[key] = nil }
      presenceDidChange(excluding: nil, in: &guarded)
      guard guarded.members.isEmpty, !guarded.isClosed else { return false }
      beginClosing(&guarded)
      return true
    }
    await waitUntilClosed()
    return closes
  }

  func close() async {
    guarded.withLock { guarded in
      if !guarded.isClosed { beginClosing(&guarded) }
    }
    await waitUntilClosed()
  }

  func waitUntilClosed() async {
    await guarded.withLock { $0.closing }?.value
  }

  /// Marks the topic closed and starts closing the store, in one step under the lock,
  /// so that whoever finds it closed also finds what to wait for.
  private func beginClosing(_ guarded: inout Guarded) {
    guarded.isClosed = true
    let (observation, store) = (guarded.observation, self.store)
    guarded.observation = nil
    guarded.closing = Task {
      observation?.cancel()
      await store.close()
    }
  }
}
