public import Statecast
public import StatecastJSON

/// Declares topics: which topic names a browser may join, the feature whose store
/// answers them, who may join and send what, and whether the stores are durable.
///
/// One primitive, two spellings, so an app moves a feature from one to the other by
/// changing one word:
/// - `perSession`: every joining browser tab gets its own store, closed (effects
///   cancelled) when the tab leaves the topic or its session expires.
/// - `shared`: one store per topic name (a room such as `board/42`), made by the first
///   join; every member's actions go through the same reducer and every member
///   receives the same patch bytes (or, when the feature's view depends on the viewer,
///   those of their view). It is closed when its last member has gone, and the server
///   then keeps nothing of it unless it is durable.
///
/// The feature describes itself once, so serving it is one line:
///
/// ```swift
/// StatecastServer(routes: [
///   .perSession("counter", Counter.self, dependencies: live, durability: .durable),
///   .shared("counter/:room", Counter.self, dependencies: live, durability: .durable),
///   .group("admin", access: Access(canJoin: { $0.params["key"] == "s3cret" }), [
///     .perSession("audit", Audit.self, dependencies: audit),
///   ]),
/// ])
/// ```
///
/// Each store is made by the feature's `makeStore(dependencies:join:)`, which sees the
/// join (the viewer, the pattern's path parameters, the join's params) and may refuse
/// it by throwing `JoinRefused`. Only the feature's `ClientAction` can be decoded from
/// a browser; it is embedded into the store's own action type, so actions the server
/// keeps for itself (effect results, timer ticks) cannot be forged. Only its
/// `ViewState`, the projection of the state, is encoded and diffed: secrets in the
/// state never leave the server. A per-session topic of an `UploadingFeature` accepts
/// the files announced on it (docs/PROTOCOL.md, "Uploads").
public struct Route: Sendable {
  /// The topics this route declares: one, or every topic of a group.
  let topics: [TopicRoute]

  /// A topic whose store belongs to one browser tab.
  ///
  /// A durable one is saved with the tab's session, at an interval while the server
  /// runs and when it drains (SIGTERM), so that a tab reconnecting after a restart (a
  /// deploy) finds its state; after a `kill -9`, as of the last save.
  ///
  /// - Parameters:
  ///   - pattern: the topic names this route answers, e.g. `counter` or `board/:id`;
  ///     `:name` segments are captured into ``JoinRequest/pathParameters``.
  ///   - feature: the feature served (its client action, embedding, view and store).
  ///   - dependencies: what each new store runs with, evaluated once per store (so
  ///     `.live()` gives every store its own service).
  ///   - access: who may join and who may send which action (`forbidden` otherwise).
  ///   - durability: `.durable` to keep the stores (a `DurableFeature` only); `nil`, the
  ///     default, keeps them in memory.
  public static func perSession<F: Feature>(
    _ pattern: String,
    _ feature: F.Type,
    dependencies: @autoclosure @escaping @Sendable () -> F.Dependencies,
    access: Access<F.ClientAction> = .everyone,
    durability: Durability<F>? = nil
  ) -> Route {
    Route(topics: [
      TopicRoute(
        pattern, .perSession, feature, access: access, dependencies: dependencies, durability: durability)
    ])
  }

  /// A topic whose store is shared by every browser that joins the same topic name.
  ///
  /// The store is made by the first join of a topic name and lives while the topic has
  /// members: sessions that joined it and have not left or expired (a member whose
  /// socket dropped stays one for the grace period). When the last member is gone the
  /// store is closed, and a later join starts a fresh one.
  ///
  /// A durable room has every change on disk before anyone sees it: the `ok` reply to
  /// an action means the change survives a crash, and a room whose last member left
  /// stays on disk until a later join loads it. Its revisions keep increasing across
  /// restarts; effects that were in flight when the process stopped are gone, event
  /// sources start again, and the feature's `restored(_:)` fixes up what they left.
  ///
  /// - Parameters:
  ///   - pattern: the topic names this route answers, e.g. `board/:id`.
  ///   - feature: the feature served; its store is made with the first member's join.
  ///   - dependencies: what each new store runs with, evaluated once per store.
  ///   - access: who may join and who may send which action (`forbidden` otherwise).
  ///   - durability: `.durable` to journal the rooms (a `DurableFeature` only); `nil`,
  ///     the default, keeps them in memory.
  public static func shared<F: Feature>(
    _ pattern: String,
    _ feature: F.Type,
    dependencies: @autoclosure @escaping @Sendable () -> F.Dependencies,
    access: Access<F.ClientAction> = .everyone,
    durability: Durability<F>? = nil
  ) -> Route {
    Route(topics: [
      TopicRoute(
        pattern, .shared, feature, access: access, dependencies: dependencies, durability: durability)
    ])
  }

  /// Routes that share an access rule and, optionally, a topic prefix.
  ///
  /// The group's rule is checked before each route's own: a join must pass both, and
  /// an action must pass the group's `canSend` (which sees the action's JSON, since the
  /// routes' action types differ) and then the route's.
  ///
  /// - Parameters:
  ///   - prefix: prepended with a `/` to every pattern of the group (`""` for none).
  ///   - access: the rule every route of the group obeys.
  ///   - routes: the routes of the group.
  public static func group(_ prefix: String = "", access: Access<JSON>, _ routes: [Route]) -> Route {
    Route(topics: routes.flatMap(\.topics).map { $0.inGroup(prefix: prefix, access: access) })
  }
}
