import Foundation
import Logging
import Statecast
import StatecastJSON
import StatecastStorage

/// Opens the stores of durable routes: a room from its journal, a per-tab store from
/// the state saved with its session.
enum DurableStores {
  static func open<F: DurableFeature>(
    _ feature: F.Type, _ request: JoinRequest, _ context: HostContext, dependencies: F.Dependencies,
    durability: Durability
  ) async throws -> OpenedStore<F.State, F.Action> {
    guard let storage = context.storage else {
      context.logger.warning(
        "a durable route has no storage: its stores live in memory only",
        metadata: ["topic": "\(request.topic)"])
      return OpenedStore(store: F.makeStore(dependencies: dependencies, state: F.initialState, commit: nil))
    }
    switch context.restoring {
    case .some(let saved):
      return try restoreTab(
        feature, request, saved, context, dependencies: dependencies, durability: durability)
    case .none:
      break
    }
    // Per-tab stores are saved with their session, not journaled action by action.
    guard context.opensRoom else {
      return OpenedStore(
        store: F.makeStore(dependencies: dependencies, state: F.initialState, commit: nil),
        saveState: { try? JSONValueEncoder().encode($0) })
    }
    let journal = try await openJournal(feature, room: request.topic, storage: storage, context, durability)
    let state = journal.revision > 0 ? F.restored(journal.restoredState) : journal.restoredState
    let metrics = context.metrics
    let store = F.makeStore(
      dependencies: dependencies, state: state,
      commit: { commit in
        let started = ContinuousClock.now
        defer { metrics?.committed(ContinuousClock.now - started) }
        try await journal.commit(commit)
      })
    return OpenedStore(
      store: store, revision: restoredRevisionBase(), isRestored: true, isNewRoom: { !journal.isStored },
      appliedKeys: journal.restoredKeys)
  }

  private static func openJournal<F: DurableFeature>(
    _ feature: F.Type, room: String, storage: any StateStorage, _ context: HostContext,
    _ durability: Durability
  ) async throws -> RoomJournal<F.State> {
    do {
      return try await RoomJournal.open(room: room, in: storage, initialState: F.initialState)
    } catch StorageError.undecodableState(let stored, let revision, let error) {
      context.logger.error(
        "the stored state of a room no longer decodes",
        metadata: ["topic": "\(stored)", "revision": "\(revision)", "error": "\(error)"])
      switch durability.ifUndecodable {
      case .startFresh:
        return try await RoomJournal.replacing(room: room, in: storage, with: F.initialState)
      case .refuseJoin:
        throw JoinRefused("the stored state of \(room) can no longer be read")
      }
    }
  }

  private static func restoreTab<F: DurableFeature>(
    _ feature: F.Type, _ request: JoinRequest, _ saved: (state: JSON, revision: Int), _ context: HostContext,
    dependencies: F.Dependencies, durability: Durability
  ) throws -> OpenedStore<F.State, F.Action> {
    let state: F.State
    do {
      state = F.restored(try JSONValueDecoder().decode(F.State.self, from: saved.state))
    } catch {
      context.logger.error(
        "the saved state of a tab's store no longer decodes",
        metadata: ["topic": "\(request.topic)", "error": "\(error)"])
      if case .refuseJoin = durability.ifUndecodable {
        throw JoinRefused("the saved state of \(request.topic) can no longer be read")
      }
      state = F.initialState
    }
    return OpenedStore(
      store: F.makeStore(dependencies: dependencies, state: state, commit: nil),
      revision: restoredRevisionBase(), isRestored: true,
      saveState: { try? JSONValueEncoder().encode($0) })
  }

  /// Where the revisions of a restored topic start: the restore time in milliseconds,
  /// later than any revision the topic had in an earlier process (those started at that
  /// process's restore time and moved by one per patch), so revisions keep increasing
  /// across restarts.
  static func restoredRevisionBase() -> Int {
    Int(Date().timeIntervalSince1970 * 1_000)
  }
}
