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
    if let path = (try? join.params.decode(LinkPath.self))?.path, path.hasPrefix("/music"),
      path.utf8.count <= 512
    {
      // Read apart from the path: a query that is not a string is ignored, not the link.
      let query = (try? join.params.decode(LinkQuery.self))?.query ?? ""
      await store.send(.client(.open(path: path + (query.hasPrefix("?") ? query : ""))))
    }
    return store
  }

  /// The path of the link a join's params may name.
  struct LinkPath: Decodable { var path: String? }
  /// The query of that link.
  struct LinkQuery: Decodable { var query: String? }

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
