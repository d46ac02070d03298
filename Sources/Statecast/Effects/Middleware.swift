/// An async function of the state after the reducer, the action and explicit
/// dependencies, which may answer with one more action for the store.
///
/// This is the imperative shell around the functional core: logging, persistence,
/// network calls. For every action, the store runs all of its middlewares concurrently
/// in a task group it owns, each with the state the reducer just produced; an action a
/// middleware returns is sent back into the store as soon as that middleware finishes.
/// Errors go to the store's `onError`; middlewares are cancelled when the store closes.
///
/// ```swift
/// struct FastingDependencies: Sendable { var share: @Sendable (Fast) async throws -> Void }
///
/// let sharing = Middleware<FastingState, FastingAction>(dependencies: live) { state, action, dependencies in
///   guard case .shareTapped = action, let fast = state.lastFast else { return nil }
///   do { try await dependencies.share(fast); return .shared } catch { return .shareFailed }
/// }
/// ```
public struct Middleware<State, Action>: Sendable {
  package let body: @Sendable (State, Action) async throws -> Action?

  /// Creates a middleware from a function of the state and the action.
  public init(_ run: @escaping @Sendable (_ state: State, _ action: Action) async throws -> Action?) {
    self.body = run
  }

  /// Creates a middleware whose function also receives `dependencies`, a value (a
  /// struct of closures is the model) that tests replace freely.
  public init<Dependencies: Sendable>(
    dependencies: Dependencies,
    _ run:
      @escaping @Sendable (
        _ state: State, _ action: Action, _ dependencies: Dependencies
      ) async throws -> Action?
  ) {
    self.body = { state, action in try await run(state, action, dependencies) }
  }

  /// Runs the middleware once, outside any store; useful in tests.
  public func run(state: State, action: Action) async throws -> Action? {
    try await body(state, action)
  }
}
