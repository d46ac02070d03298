import Statecast
import StatecastJSON

/// Presence: who is in a shared topic and what each member published, under `/presence`.
extension StoreHost {
  func setPresence(_ meta: JSON, from session: String) throws(ProtocolError) {
    let refusal = guarded.withLock { guarded -> ProtocolError? in
      guard guarded.members[session] != nil else {
        return ProtocolError(.notJoined, "not joined to \(topic)")
      }
      guard showsPresence else { return ProtocolError(.badMessage, "\(topic) has no presence") }
      guarded.metaUpdates += 1
      guarded.members[session]?.meta = meta
      guarded.members[session]?.metaSequence = guarded.metaUpdates
      publishMetaChange(in: &guarded)
      return nil
    }
    if let refusal { throw refusal }
  }

  /// Publishes a `meta` change now if none was published within the interval; else
  /// once the interval is over, together with every change made meanwhile (a member
  /// sending presence as fast as it can costs the others ten patches a second, not one
  /// per message). Call with the lock held.
  private func publishMetaChange(in guarded: inout Guarded) {
    guard !guarded.metaPublishScheduled else { return }
    let now = ContinuousClock.now
    if let last = guarded.lastMetaPublish, now - last < Presence.publishInterval {
      guarded.metaPublishScheduled = true
      let wait = Presence.publishInterval - (now - last)
      // Unowned by the store's task group on purpose: it only takes the lock once, and
      // finds the topic closed if it has gone meanwhile.
      Task { [weak self] in
        try? await Task.sleep(for: wait)
        self?.publishScheduledMeta()
      }
      return
    }
    guarded.lastMetaPublish = now
    presenceDidChange(excluding: nil, in: &guarded)
  }

  private func publishScheduledMeta() {
    guarded.withLock { guarded in
      guard guarded.metaPublishScheduled else { return }
      guarded.metaPublishScheduled = false
      guard !guarded.isClosed else { return }
      guarded.lastMetaPublish = ContinuousClock.now
      presenceDidChange(excluding: nil, in: &guarded)
    }
  }

  /// Recomputes `/presence` and queues the change to every member (but `excluded`,
  /// who gets a snapshot or catch-up right after). Call with the lock held.
  func presenceDidChange(excluding excluded: String?, in guarded: inout Guarded) {
    guard showsPresence else { return }
    let updated = Presence.entries(
      guarded.members.values.map {
        ($0.viewer, $0.connection != nil, $0.meta, $0.metaSequence, $0.joinOrder, $0.request.address)
      })
    let patch = JSONPatch.diff(from: guarded.presence, to: updated)
    guarded.presence = updated
    guard !patch.isEmpty else { return }
    let prefixed = patch.prefixed(by: "presence")
    var index = guarded.channels.startIndex
    while index != guarded.channels.endIndex {
      publish(prefixed, at: index, excluding: excluded, in: &guarded)
      guarded.channels.formIndex(after: &index)
    }
  }
}
