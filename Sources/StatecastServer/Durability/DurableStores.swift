import Foundation
import Logging
import Statecast
import StatecastJSON
import StatecastStorage

/// Opens the stores of durable routes: a room from its journal, a per-tab store from
/// the state saved with its session. Where their revisions start is not decided here
/// but by ``RevisionOrigin``, from whether the state was restored.
enum DurableStores {
  static func open<F: DurableFeature>(
    _ feature: F.Type, _ request: JoinRequest, _ context: HostContext, dependencies: F.Dependencies,
    ifUndecodable: Durability<F>.UndecodablePolicy
  ) async throws -> OpenedStore<F.State, F.Action> {
    let join = request.join
    guard let storage = context.storage else {
      context.logger.warning(
        "a durable route has no storage: its stores live in memory only",
        metadata: ["topic": "\(request.topic)"])
      return OpenedStore(
        store: try await F.makeStore(
          dependencies: dependencies, join: join, state: F.initialState, commit: nil))
    }
    if let saved = context.restoring {
      let state = try restoredTab(feature, request, saved.state, context, ifUndecodable: ifUndecodable)
      return OpenedStore(
        store: try await F.makeStore(dependencies: dependencies, join: join, state: state, commit: nil),
        isRestored: true, saveState: { try? JSONValueEncoder().encode($0) })
    }
    // Per-tab stores are saved with their session, not journaled action by action.
    guard context.opensRoom else {
      return OpenedStore(
        store: try await F.makeStore(
          dependencies: dependencies, join: join, state: F.initialState, commit: nil),
        saveState: { try? JSONValueEncoder().encode($0) })
    }
    let journal = try await openJournal(
      feature, room: request.topic, storage: storage, context, ifUndecodable: ifUndecodable)
    let state = journal.revision > 0 ? F.restored(journal.restoredState) : journal.restoredState
    let metrics = context.metrics
    let store = try await F.makeStore(
      dependencies: dependencies, join: join, state: state,
      commit: { commit in
        let started = ContinuousClock.now
        defer { metrics?.committed(ContinuousClock.now - started) }
        try await journal.commit(commit)
      })
    return OpenedStore(
      store: store, isRestored: true, isNewRoom: { !journal.isStored }, appliedKeys: journal.restoredKeys)
  }

  private static func openJournal<F: DurableFeature>(
    _ feature: F.Type, room: String, storage: any StateStorage, _ context: HostContext,
    ifUndecodable: Durability<F>.UndecodablePolicy
  ) async throws -> RoomJournal<F.State> {
    do {
      return try await RoomJournal.open(room: room, in: storage, initialState: F.initialState)
    } catch StorageError.undecodableState(let stored, let revision, let error) {
      context.logger.error(
        "the stored state of a room no longer decodes",
        metadata: ["topic": "\(stored)", "revision": "\(revision)", "error": "\(error)"])
      switch ifUndecodable {
      case .startFresh:
        return try await RoomJournal.replacing(room: room, in: storage, with: F.initialState)
      case .refuseJoin:
        throw JoinRefused("the stored state of \(room) can no longer be read")
      }
    }
  }

  /// The state a tab's store restarts from: the saved one passed through `restored(_:)`,
  /// or, when it no longer decodes, the initial one (or a refusal, as the route says).
  private static func restoredTab<F: DurableFeature>(
    _ feature: F.Type, _ request: JoinRequest, _ saved: JSON, _ context: HostContext,
    ifUndecodable: Durability<F>.UndecodablePolicy
  ) throws -> F.State {
    do {
      return F.restored(try JSONValueDecoder().decode(F.State.self, from: saved))
    } catch {
      context.logger.error(
        "the saved state of a tab's store no longer decodes",
        metadata: ["topic": "\(request.topic)", "error": "\(error)"])
      if case .refuseJoin = ifUndecodable {
        throw JoinRefused("the saved state of \(request.topic) can no longer be read")
      }
      return F.initialState
    }
  }
}
