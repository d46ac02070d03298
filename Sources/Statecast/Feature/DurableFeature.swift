/// A ``Feature`` whose stores can be made durable: its state is `Codable`, a store can
/// start from a stored state, and every change can be committed before anyone sees it.
///
/// A server journals each change of a durable store (its state as JSON, diffed), and
/// after a restart starts the store again from what was stored. No action needs to be
/// `Codable` and no effect is ever replayed: effects that were in flight are gone, and
/// event sources start again with the new store. ``restored(_:)`` is where a feature
/// reacts to that, with a pure fix-up of the stored state (a "loading" flag whose
/// effect died with the old process, say).
///
/// A durable feature writes one `makeStore`, the one below: the plain
/// ``Feature/makeStore(dependencies:join:)`` comes with it (from ``initialState``,
/// without commits), for a route that is not durable and for tests.
///
/// A durable feature whose `Dependencies` is a type of its own (`Counter.Dependencies`) or
/// `Void` needs nothing more; one that runs with another type names it
/// (`typealias Dependencies = Clock`), since only the durable `makeStore` mentions it.
///
/// ```swift
/// extension Counter: DurableFeature {
///   public static var initialState: State { State() }
///   public static func makeStore(
///     dependencies: Dependencies, join: Join, state: State,
///     commit: (@Sendable (Commit<State>) async throws -> Void)?
///   ) -> Store<State, Action> {
///     Store(initialState: state, reducer: reducer(dependencies: dependencies), commit: commit)
///   }
///   public static func restored(_ state: State) -> State {
///     var state = state
///     if case .loading = state.nthPrime { state.nthPrime = .notAsked }
///     return state
///   }
/// }
/// ```
public protocol DurableFeature: Feature where State: Codable {
  /// The state a store starts from when nothing is stored yet.
  static var initialState: State { get }
  /// A store for `join` that starts from `state` (``initialState``, or what was stored
  /// passed through ``restored(_:)``) and, with `commit`, makes each change durable
  /// before it is published (see ``Commit``). Throwing ``JoinRefused`` refuses the join.
  static func makeStore(
    dependencies: Dependencies, join: Join, state: State,
    commit: (@Sendable (Commit<State>) async throws -> Void)?
  ) async throws -> Store<State, Action>
  /// The state a restored store starts from, given what was stored; by default the
  /// stored state itself.
  static func restored(_ state: State) -> State
}

extension DurableFeature {
  public static func restored(_ state: State) -> State { state }

  /// A store that starts from ``initialState`` and commits nothing: the plain
  /// ``Feature/makeStore(dependencies:join:)`` of a durable feature (a route that is not
  /// durable, a test), so the feature writes only the durable one.
  public static func makeStore(dependencies: Dependencies, join: Join) async throws -> Store<State, Action> {
    try await makeStore(dependencies: dependencies, join: join, state: initialState, commit: nil)
  }
}
