import Logging
import Statecast
import StatecastJSON

/// One topic pattern of a ``Route``, with its feature's types erased: what the topic
/// registry matches a `join` against and asks to make a topic host.
struct TopicRoute: Sendable {
  enum Sharing: Sendable {
    case perSession
    case shared
  }

  let pattern: TopicPattern
  let sharing: Sharing
  let canJoin: @Sendable (JoinRequest) -> Bool
  /// A group's rule on actions, checked on the action's JSON before it is decoded.
  let screen: @Sendable (JoinRequest, JSON) -> Bool
  /// Whether the topic's stores are durable (their state saved, restored after a restart).
  let isDurable: Bool
  private let makeHost:
    @Sendable (JoinRequest, HostContext, _ screen: @escaping @Sendable (JoinRequest, JSON) -> Bool)
      async throws -> any TopicHost

  /// A route serving `feature`: its embedding with the sender, its view (per viewer if
  /// the feature says so), its stores made for each join from `dependencies`, kept as
  /// `durability` says, and, for a per-session topic of an `UploadingFeature`, the
  /// files it accepts.
  init<F: Feature>(
    _ pattern: String, _ sharing: Sharing, _ feature: F.Type, access: Access<F.ClientAction>,
    dependencies: @escaping @Sendable () -> F.Dependencies, durability: Durability<F>?
  ) {
    self.pattern = TopicPattern(pattern)
    self.sharing = sharing
    self.canJoin = access.canJoin
    self.screen = { _, _ in true }
    self.isDurable = durability != nil
    let canSend = access.canSend
    let uploads = sharing == .perSession ? UploadAcceptance<F.Action>.of(F.self) : nil
    self.makeHost = { request, context, screen in
      let opened =
        if let durability {
          try await durability.open(request, context, dependencies())
        } else {
          OpenedStore(store: try await F.makeStore(dependencies: dependencies(), join: request.join))
        }
      let origin = RevisionOrigin.of(restored: opened.isRestored, clustered: context.isClustered)
      let host = await StoreHost(
        topic: request.topic, store: opened.store, embed: { F.embed($0, from: $1) },
        view: { F.viewState($0, for: $1) }, viewDependsOnViewer: F.viewDependsOnViewer,
        showsPresence: sharing == .shared,
        canSend: { request, action, json in screen(request, json) && canSend(request, action) },
        sink: context.sink, revision: origin.revision, historyStartsKnown: origin.historyStartsKnown,
        saveState: opened.saveState, isNewRoom: opened.isNewRoom, appliedKeys: opened.appliedKeys,
        logger: context.logger)
      host.uploads = uploads?.target(for: opened.store)
      return host
    }
  }

  private init(
    copying route: TopicRoute, pattern: TopicPattern, canJoin: @escaping @Sendable (JoinRequest) -> Bool,
    screen: @escaping @Sendable (JoinRequest, JSON) -> Bool
  ) {
    self.pattern = pattern
    self.sharing = route.sharing
    self.canJoin = canJoin
    self.screen = screen
    self.isDurable = route.isDurable
    self.makeHost = route.makeHost
  }

  /// Makes the host of a topic this route matched, its store made for `request`.
  func makeHost(_ request: JoinRequest, context: HostContext) async throws -> any TopicHost {
    try await makeHost(request, context, screen)
  }

  /// This route inside a group: the group's prefix and rules come first.
  func inGroup(prefix: String, access: Access<JSON>) -> TopicRoute {
    let (ownJoin, ownScreen) = (canJoin, screen)
    return TopicRoute(
      copying: self,
      pattern: prefix.isEmpty ? pattern : TopicPattern(prefix + "/" + pattern.description),
      canJoin: { access.canJoin($0) && ownJoin($0) },
      screen: { access.canSend($0, $1) && ownScreen($0, $1) })
  }
}
