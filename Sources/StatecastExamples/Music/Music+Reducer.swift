public import Statecast

extension Music {
  /// Opens the screen that the rules resolve for a link; no effects.
  public static func reducer(dependencies: Dependencies) -> Reducer<State, Action> {
    let router = Rules.router(for: dependencies.catalogue)
    return Reducer { state, action in
      switch action {
      case .client(.open(let path)):
        let link = DeepLink(path)
        state.screen = router.evaluate(link) ?? .notFound(path: link.path)
        return .none
      }
    }
  }

  /// A store for one browser. A join whose params name a link (`path`, `query`: the
  /// address the page was opened at) opens its screen first, so the page is rendered at
  /// the screen its address names, readable before any script; without one, the home
  /// screen until the page opens its link.
  public static func makeStore(dependencies: Dependencies, join: Join) async -> Store<State, Action> {
    let store = Store(
      initialState: State(catalogue: dependencies.catalogue), reducer: reducer(dependencies: dependencies))
    if let link = try? join.params.decode(OpenedLink.self), let path = link.path, path.hasPrefix("/music"),
      path.utf8.count <= 512
    {
      let query = link.query ?? ""
      await store.send(.client(.open(path: path + (query.hasPrefix("?") ? query : ""))))
    }
    return store
  }

  /// The link a join's params may name.
  struct OpenedLink: Decodable {
    var path: String?
    var query: String?
  }

  /// What the music app depends on: the catalogue its links point into.
  public struct Dependencies: Sendable {
    public var catalogue: MusicCatalogue

    public init(catalogue: MusicCatalogue) {
      self.catalogue = catalogue
    }

    /// The demo's small in-memory catalogue.
    public static func live() -> Self {
      Self(catalogue: .sample)
    }
  }
}
