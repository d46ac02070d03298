import StatecastJSON

/// A member's view without a frame: what a live navigation renders a kept topic with.
extension StoreHost {
  func currentView(of session: String) -> RenderedTopic? {
    guarded.withLock { guarded in
      // A member whose patches were skipped (a congested socket) waits for a snapshot:
      // its socket does not have this view.
      guard !guarded.isClosed, let member = guarded.members[session], !member.needsSnapshot,
        let channel = guarded.channels[channelKey(for: member.viewer)]
      else { return nil }
      var state = channel.tracker.current
      // Presence goes into the state as a snapshot puts it there.
      if showsPresence, case .object(var members) = state {
        members["presence"] = guarded.presence
        state = .object(members)
      }
      return RenderedTopic(revision: channel.revision, state: state)
    }
  }
}
