public import Statecast
public import StatecastJSON

/// Declares topics: which topic names a browser may join, how the store behind one is
/// made, what a browser may send to it, and what of its state a browser sees.
///
/// Two kinds share one shape, so an app can move a feature from one to the other by
/// changing one word:
/// - `perSession(_:_:dependencies:access:)`: every joining browser tab gets its own
///   store, closed (effects cancelled) when the tab leaves the topic or its session
///   expires.
/// - ``shared(_:_:dependencies:access:)``: one store per topic name (a room such as
///   `board/42`), made by the first join; every member's actions go through the same
///   reducer and every member receives the same patch bytes. It is closed when its last
///   member has gone, and the server then keeps nothing of it.
///
/// A `Feature` describes itself once, so serving it is one line:
///
/// ```swift
/// StatecastServer(routes: [
///   .perSession("counter", Counter.self, dependencies: live),
///   .shared("counter/:room", Counter.self, dependencies: live),
///   .group("admin", access: Access(canJoin: { $0.params["key"] == "s3cret" }), [
///     .perSession("audit", Audit.self, dependencies: audit),
///   ]),
/// ])
/// ```
///
/// Only the feature's `ClientAction` can be decoded from a browser; it is embedded into
/// the store's own action type, so actions the server keeps for itself (effect results,
/// timer ticks) cannot be forged. Only its `ViewState`, the projection of the state, is
/// encoded and diffed: secrets in the state never leave the server.
public struct Route: Sendable {
  /// The topics this route declares: one, or every topic of a group.
  let topics: [TopicRoute]

  /// A topic whose store belongs to one browser tab.
  ///
  /// - Parameters:
  ///   - pattern: the topic names this route answers, e.g. `counter` or `board/:id`;
  ///     `:name` segments are captured into ``JoinRequest/parameters``.
  ///   - feature: the feature served (its client action, embedding, view and store).
  ///   - dependencies: what each new store runs with, evaluated once per store (so
  ///     `.live()` gives every store its own service).
  ///   - access: who may join and who may send which action (`forbidden` otherwise).
  public static func perSession<F: Feature>(
    _ pattern: String,
    _ feature: F.Type,
    dependencies: @autoclosure @escaping @Sendable () -> F.Dependencies,
    access: Access<F.ClientAction> = .everyone
  ) -> Route {
    Route(topics: [TopicRoute(pattern, .perSession, feature, access: access, dependencies: dependencies)])
  }

  /// A topic whose store is shared by every browser that joins the same topic name.
  ///
  /// The store is made by the first join of a topic name and lives while the topic has
  /// members: sessions that joined it and have not left or expired (a member whose
  /// socket dropped stays one for the grace period). When the last member is gone the
  /// store is closed, and a later join starts a fresh one. Parameters as in
  /// `perSession(_:_:dependencies:access:)`.
  public static func shared<F: Feature>(
    _ pattern: String,
    _ feature: F.Type,
    dependencies: @autoclosure @escaping @Sendable () -> F.Dependencies,
    access: Access<F.ClientAction> = .everyone
  ) -> Route {
    Route(topics: [TopicRoute(pattern, .shared, feature, access: access, dependencies: dependencies)])
  }

  /// Serves a feature that accepts uploads with a store per tab: files announced on
  /// its topic are received within `UploadingFeature.uploadLimits` and reach its store
  /// as `UploadingFeature.fileUploaded(_:)` (docs/PROTOCOL.md, "Uploads").
  public static func perSession<F: UploadingFeature>(
    _ pattern: String,
    _ feature: F.Type,
    dependencies: @autoclosure @escaping @Sendable () -> F.Dependencies,
    access: Access<F.ClientAction> = .everyone
  ) -> Route {
    Route(topics: [
      TopicRoute(pattern, .perSession, uploading: feature, access: access, dependencies: dependencies)
    ])
  }

  /// A topic whose store belongs to one browser tab, saved with the tab's session so
  /// that a tab reconnecting after a restart (a deploy) finds its state.
  ///
  /// The session and its per-tab stores are saved at an interval while the server runs
  /// and when it drains (SIGTERM); after a `kill -9`, a tab comes back as of the last
  /// save. Parameters as in `perSession(_:_:dependencies:access:)`.
  public static func perSession<F: DurableFeature>(
    _ pattern: String,
    _ feature: F.Type,
    dependencies: @autoclosure @escaping @Sendable () -> F.Dependencies,
    access: Access<F.ClientAction> = .everyone,
    durability: Durability
  ) -> Route {
    Route(topics: [
      TopicRoute(
        pattern, .perSession, feature, access: access, dependencies: dependencies, durability: durability)
    ])
  }

  /// A shared topic whose every change is on disk before anyone sees it: the `ok` reply
  /// to an action means the change survives a crash, and a room whose last member left
  /// stays on disk until a later join loads it.
  ///
  /// A durable room's revisions keep increasing across restarts; effects that were in
  /// flight when the process stopped are gone, event sources start again, and the
  /// feature's `restored(_:)` fixes up what they left (see `DurableFeature`).
  /// Parameters as in ``shared(_:_:dependencies:access:)``.
  public static func shared<F: DurableFeature>(
    _ pattern: String,
    _ feature: F.Type,
    dependencies: @autoclosure @escaping @Sendable () -> F.Dependencies,
    access: Access<F.ClientAction> = .everyone,
    durability: Durability
  ) -> Route {
    Route(topics: [
      TopicRoute(
        pattern, .shared, feature, access: access, dependencies: dependencies, durability: durability)
    ])
  }

  /// A per-session topic spelled out piece by piece, for a store that is made from the
  /// join itself (its parameters or `params`), or a feature with no `Feature`
  /// conformance.
  ///
  /// - Parameters:
  ///   - pattern: the topic names this route answers, as in
  ///     `perSession(_:_:dependencies:access:)`.
  ///   - clientAction: the only action type a browser may send, decoded from the
  ///     message's `action` JSON with `Codable`.
  ///   - embed: turns a client action into the store's action.
  ///   - view: the projection of the state that browsers see.
  ///   - access: who may join and who may send which action.
  ///   - store: makes the store for a join; throwing ``JoinRefused`` refuses the join
  ///     with its reason.
  public static func perSession<
    State: Sendable, Action: Sendable, ClientAction: Decodable & Sendable, View: Encodable & Sendable
  >(
    _ pattern: String,
    clientAction: ClientAction.Type = ClientAction.self,
    embed: @escaping @Sendable (ClientAction) -> Action,
    view: @escaping @Sendable (State) -> View,
    access: Access<ClientAction> = .everyone,
    store: @escaping @Sendable (JoinRequest) async throws -> Store<State, Action>
  ) -> Route {
    Route(topics: [
      TopicRoute(
        pattern, .perSession, embed: { action, _ in embed(action) }, view: { state, _ in view(state) },
        viewDependsOnViewer: false, access: access, store: store)
    ])
  }

  /// A shared topic spelled out piece by piece; see
  /// ``perSession(_:clientAction:embed:view:access:store:)``.
  public static func shared<
    State: Sendable, Action: Sendable, ClientAction: Decodable & Sendable, View: Encodable & Sendable
  >(
    _ pattern: String,
    clientAction: ClientAction.Type = ClientAction.self,
    embed: @escaping @Sendable (ClientAction) -> Action,
    view: @escaping @Sendable (State) -> View,
    access: Access<ClientAction> = .everyone,
    store: @escaping @Sendable (JoinRequest) async throws -> Store<State, Action>
  ) -> Route {
    Route(topics: [
      TopicRoute(
        pattern, .shared, embed: { action, _ in embed(action) }, view: { state, _ in view(state) },
        viewDependsOnViewer: false, access: access, store: store)
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
