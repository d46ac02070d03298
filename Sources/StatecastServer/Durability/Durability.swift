public import Statecast

/// How a route keeps its stores when it is durable: `durability:` on a route of a
/// `DurableFeature` (a feature that is not durable has no such value).
///
/// A durable shared topic (a room) journals every change on disk before the change is
/// published: its `ok` reply means the change survives a crash, and a restart finds the
/// room as it was. Per-tab stores of a durable route are saved with their session, at
/// an interval and when the server drains, so a tab that reconnects after a deploy
/// finds its state. Where they are kept is the server's ``Persistence``. See
/// docs/DURABILITY.md.
///
/// ```swift
/// .shared("counter/:room", Counter.self, dependencies: live, durability: .durable)
/// .shared("board/:room", Board.self, dependencies: live, durability: .durable(ifStateNoLongerDecodes: .refuseJoin))
/// ```
public struct Durability<Feature: Statecast.Feature>: Sendable {
  /// What to do when a stored state no longer decodes as the feature's `State` (the
  /// app's `State` changed): the error is logged with the topic either way, and the
  /// stored data is never overwritten silently.
  public enum UndecodablePolicy: Sendable {
    /// Start from the feature's initial state; the old state is archived, not lost.
    case startFresh
    /// Refuse joins of that topic with `forbidden` until an operator steps in.
    case refuseJoin
  }

  /// Opens a store of the route from storage (see ``DurableStores``).
  let open:
    @Sendable (JoinRequest, HostContext, Feature.Dependencies) async throws -> OpenedStore<
      Feature.State, Feature.Action
    >
}

extension Durability where Feature: DurableFeature {
  /// Durable, starting fresh when a stored state no longer decodes.
  public static var durable: Self { durable(ifStateNoLongerDecodes: .startFresh) }

  /// Durable, with the given policy for a stored state that no longer decodes.
  public static func durable(ifStateNoLongerDecodes policy: UndecodablePolicy) -> Self {
    Durability(open: { request, context, dependencies in
      try await DurableStores.open(
        Feature.self, request, context, dependencies: dependencies, ifUndecodable: policy)
    })
  }
}
