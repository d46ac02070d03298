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

  /// A store for one browser, on the home screen until the page opens its link.
  public static func makeStore(dependencies: Dependencies) -> Store<State, Action> {
    Store(
      initialState: State(catalogue: dependencies.catalogue), reducer: reducer(dependencies: dependencies))
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
