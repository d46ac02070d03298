import Statecast
import StatecastJSON

/// Declares a topic: which topic names it answers, how its store is made for a joining
/// browser, what a browser may send to it, and what of its state a browser sees.
///
/// Two kinds share one shape, so an app can move a feature from one to the other by
/// changing one word:
/// - ``perSession(_:clientAction:embed:view:access:store:)``: every joining browser tab
///   gets its own store, closed (effects cancelled) when the tab leaves the topic or its
///   session expires.
/// - ``shared(_:clientAction:embed:view:access:store:)``: one store per topic name (a
///   room such as `board/42`), made by the first join; every member's actions go
///   through the same reducer and every member receives the same patch bytes. It is
///   closed when its last member has gone.
///
/// ```swift
/// Route.perSession(
///   "counter",
///   clientAction: Counter.ClientAction.self,
///   embed: Counter.Action.client,
///   view: Counter.viewState,
///   store: { _ in Counter.makeStore(dependencies: live) }
/// )
/// ```
///
/// Only `ClientAction` can be decoded from a browser; it is embedded into the store's
/// own action type, so actions the server keeps for itself (effect results, timer
/// ticks) cannot be forged. Only `View`, the projection of the state, is encoded and
/// diffed: secrets in the state never leave the server.
public struct Route: Sendable {
  enum Sharing: Sendable {
    case perSession
    case shared
  }

  let pattern: TopicPattern
  let sharing: Sharing
  let canJoin: @Sendable (JoinRequest) -> Bool
  let makeHost: @Sendable (JoinRequest, any FrameSink) async throws -> any TopicHost

  /// A topic whose store belongs to one browser tab.
  ///
  /// - Parameters:
  ///   - pattern: the topic names this route answers, e.g. `counter` or `board/:id`;
  ///     `:name` segments are captured into ``JoinRequest/parameters``.
  ///   - clientAction: the only action type a browser may send, decoded from the
  ///     message's `action` JSON with `Codable`.
  ///   - embed: turns a client action into the store's action.
  ///   - view: the projection of the state that browsers see (`{ $0 }` to show the
  ///     whole state, which the app then decides is safe to show).
  ///   - access: who may join and who may send which action (`forbidden` otherwise).
  ///   - store: makes the store for a join.
  public static func perSession<State: Sendable, Action: Sendable, ClientAction: Decodable & Sendable, View: Encodable & Sendable>(
    _ pattern: String,
    clientAction: ClientAction.Type = ClientAction.self,
    embed: @escaping @Sendable (ClientAction) -> Action,
    view: @escaping @Sendable (State) -> View,
    access: Access<ClientAction> = .everyone,
    store: @escaping @Sendable (JoinRequest) async throws -> Store<State, Action>
  ) -> Route {
    make(pattern, .perSession, embed: embed, view: view, access: access, store: store)
  }

  /// A topic whose store is shared by every browser that joins the same topic name.
  ///
  /// The store is made by the first join of a topic name (from that join's request)
  /// and lives while the topic has members: sessions that joined it and have not left
  /// or expired (a member whose socket dropped stays one for the grace period). When the
  /// last member is gone the store is closed, and a later join starts a fresh one.
  /// Parameters as in
  /// ``perSession(_:clientAction:embed:view:access:store:)``.
  public static func shared<State: Sendable, Action: Sendable, ClientAction: Decodable & Sendable, View: Encodable & Sendable>(
    _ pattern: String,
    clientAction: ClientAction.Type = ClientAction.self,
    embed: @escaping @Sendable (ClientAction) -> Action,
    view: @escaping @Sendable (State) -> View,
    access: Access<ClientAction> = .everyone,
    store: @escaping @Sendable (JoinRequest) async throws -> Store<State, Action>
  ) -> Route {
    make(pattern, .shared, embed: embed, view: view, access: access, store: store)
  }

  private static func make<State: Sendable, Action: Sendable, ClientAction: Decodable & Sendable, View: Encodable & Sendable>(
    _ pattern: String,
    _ sharing: Sharing,
    embed: @escaping @Sendable (ClientAction) -> Action,
    view: @escaping @Sendable (State) -> View,
    access: Access<ClientAction>,
    store makeStore: @escaping @Sendable (JoinRequest) async throws -> Store<State, Action>
  ) -> Route {
    Route(
      pattern: TopicPattern(pattern),
      sharing: sharing,
      canJoin: access.canJoin,
      makeHost: { request, sink in
        let store = try await makeStore(request)
        return await StoreHost(
          topic: request.topic,
          store: store,
          embed: embed,
          view: view,
          canSend: access.canSend,
          sink: sink
        )
      }
    )
  }
}

/// What a route knows about a browser joining one of its topics.
public struct JoinRequest: Sendable {
  /// The topic name as the browser sent it, e.g. `todos/team-42`.
  public let topic: String
  /// The pattern's captured segments, e.g. `["room": "team-42"]` for `todos/:room`.
  public let parameters: [String: String]
  /// The join message's `params` object (an empty object when it had none).
  public let params: JSON
  /// The id of the joining browser tab's session.
  public let session: String
}

/// Who may join a route's topics and send which actions to them.
///
/// A refused join or action is answered with `forbidden` and changes nothing.
public struct Access<ClientAction>: Sendable {
  public let canJoin: @Sendable (JoinRequest) -> Bool
  public let canSend: @Sendable (JoinRequest, ClientAction) -> Bool

  public init(
    canJoin: @escaping @Sendable (JoinRequest) -> Bool = { _ in true },
    canSend: @escaping @Sendable (JoinRequest, ClientAction) -> Bool = { _, _ in true }
  ) {
    self.canJoin = canJoin
    self.canSend = canSend
  }

  /// Anyone may join and send any client action.
  public static var everyone: Self { Self() }
}
