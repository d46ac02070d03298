import Logging
import Statecast
import StatecastJSON

/// Actions sent to the store, the new-room claim, and what a session save reads.
extension StoreHost {
  /// The new-room quota is the registry's to count here (`creator` is unused).
  func perform(_ action: JSON, key: String?, from session: String, creator: RoomCreator?)
    async throws(ProtocolError)
  {
    guard let key else { return try await apply(action, key: nil, from: session) }
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
    guard let request = guarded.withLock({ $0.members[session]?.request }) else {
      throw ProtocolError(.notJoined, "not joined to \(topic)")
    }
    guard canSend(request, decoded, action) else {
      throw ProtocolError(.forbidden, "this action is not allowed on \(topic)")
    }
    let action = embed(decoded, request.viewer)
    let task: StoreTask
    if showsPresence {
      // A room's change fans out (a diff per viewer, a frame to every member): reduced on
      // the global executor, so that the service thread goes on writing meanwhile. A
      // tab's own store reduces where the action arrived, on the service thread.
      task = await withTaskExecutorPreference(globalConcurrentExecutor) {
        await store.send(action, idempotencyKey: key)
      }
    } else {
      task = await store.send(action, idempotencyKey: key)
    }
    // A store without a commit function has nothing to wait for.
    guard store.isDurable else { return }
    do {
      try await task.committed()
    } catch {
      logger.error("a change could not be stored", metadata: ["topic": "\(topic)", "error": "\(error)"])
      throw ProtocolError(.unavailable, "the change could not be stored; nothing changed, try again later")
    }
  }

  /// Read on the store's executor, so that the state and its revision go together.
  func savedState() async -> (state: JSON, revision: Int)? {
    guard let saveState else { return nil }
    return await store.withState { state in
      self.guarded.withLock { guarded in
        guard let encoded = saveState(state) else { return nil }
        return (encoded, guarded.channels.values.first?.revision ?? self.initialRevision)
      }
    }
  }

  func savedStateVersion() -> Int? {
    guarded.withLock { saveState == nil ? nil : $0.stateChanges }
  }

  var isStored: Bool { store.isDurable }

  func claimsNewRoom() -> Bool {
    guard let isNewRoom, isNewRoom() else { return false }
    return guarded.withLock { guarded in
      guard !guarded.newRoomClaimed else { return false }
      guarded.newRoomClaimed = true
      return true
    }
  }

  func unclaimNewRoom() {
    guarded.withLock { $0.newRoomClaimed = false }
  }
}
