import Logging
import Statecast
import StatecastJSON

/// One topic pattern of a ``Route``, with its store types erased: what the topic
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

  init<State: Sendable, Action: Sendable, ClientAction: Decodable & Sendable, View: Encodable & Sendable>(
    _ pattern: String,
    _ sharing: Sharing,
    embed: @escaping @Sendable (ClientAction, Viewer) -> Action,
    view: @escaping @Sendable (State, Viewer) -> View,
    viewDependsOnViewer: Bool,
    access: Access<ClientAction>,
    isDurable: Bool = false,
    uploads: UploadAcceptance<Action>? = nil,
    open: @escaping @Sendable (JoinRequest, HostContext) async throws -> OpenedStore<State, Action>
  ) {
    self.pattern = TopicPattern(pattern)
    self.sharing = sharing
    self.canJoin = access.canJoin
    self.screen = { _, _ in true }
    self.isDurable = isDurable
    let canSend = access.canSend
    self.makeHost = { request, context, screen in
      var opened = try await open(request, context)
      if context.isClustered {
        opened.revision = max(opened.revision, DurableStores.restoredRevisionBase())
        opened.isRestored = true
      }
      let host = await StoreHost(
        topic: request.topic, store: opened.store, embed: embed, view: view,
        viewDependsOnViewer: viewDependsOnViewer,
        showsPresence: sharing == .shared,
        canSend: { request, action, json in screen(request, json) && canSend(request, action) },
        sink: context.sink, revision: opened.revision, historyStartsKnown: !opened.isRestored,
        saveState: opened.saveState, isNewRoom: opened.isNewRoom, appliedKeys: opened.appliedKeys,
        logger: context.logger)
      host.uploads = uploads?.target(for: opened.store)
      return host
    }
  }

  init<State: Sendable, Action: Sendable, ClientAction: Decodable & Sendable, View: Encodable & Sendable>(
    _ pattern: String,
    _ sharing: Sharing,
    embed: @escaping @Sendable (ClientAction, Viewer) -> Action,
    view: @escaping @Sendable (State, Viewer) -> View,
    viewDependsOnViewer: Bool,
    access: Access<ClientAction>,
    uploads: UploadAcceptance<Action>? = nil,
    store makeStore: @escaping @Sendable (JoinRequest) async throws -> Store<State, Action>
  ) {
    self.init(
      pattern, sharing, embed: embed, view: view, viewDependsOnViewer: viewDependsOnViewer, access: access,
      uploads: uploads, open: { request, _ in OpenedStore(store: try await makeStore(request)) })
  }

  /// A route serving a durable feature: shared rooms are journaled, per-tab stores are
  /// saved with their session (see docs/DURABILITY.md).
  init<F: DurableFeature>(
    _ pattern: String, _ sharing: Sharing, _ feature: F.Type, access: Access<F.ClientAction>,
    dependencies: @escaping @Sendable () -> F.Dependencies, durability: Durability
  ) {
    self.init(
      pattern, sharing, embed: { F.embed($0, from: $1) }, view: { F.viewState($0, for: $1) },
      viewDependsOnViewer: F.viewDependsOnViewer, access: access, isDurable: true,
      open: { request, context in
        try await DurableStores.open(
          F.self, request, context, dependencies: dependencies(), durability: durability)
      })
  }

  /// A route serving `feature`: its embedding with the sender, its view (per viewer if
  /// the feature says so), its stores made from `dependencies`.
  init<F: Feature>(
    _ pattern: String, _ sharing: Sharing, _ feature: F.Type, access: Access<F.ClientAction>,
    dependencies: @escaping @Sendable () -> F.Dependencies
  ) {
    self.init(
      pattern, sharing, embed: { F.embed($0, from: $1) }, view: { F.viewState($0, for: $1) },
      viewDependsOnViewer: F.viewDependsOnViewer, access: access,
      store: { _ in F.makeStore(dependencies: dependencies()) })
  }

  /// A route serving a feature that accepts uploads (see `UploadingFeature`).
  init<F: UploadingFeature>(
    _ pattern: String, _ sharing: Sharing, uploading feature: F.Type, access: Access<F.ClientAction>,
    dependencies: @escaping @Sendable () -> F.Dependencies
  ) {
    self.init(
      pattern, sharing, embed: { F.embed($0, from: $1) }, view: { F.viewState($0, for: $1) },
      viewDependsOnViewer: F.viewDependsOnViewer, access: access,
      uploads: UploadAcceptance(limits: F.uploadLimits, action: { F.fileUploaded($0) }),
      store: { _ in F.makeStore(dependencies: dependencies()) })
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
