/// The single entry for change: holds one feature's state, runs its reducer for every
/// action, publishes each new state, and owns every task its effects, middlewares and
/// event sources run.
///
/// **Order.** The store is an actor: actions sent concurrently from many tasks are
/// processed one at a time, in the order they reach the store's executor. Each
/// ``send(_:)`` runs the reducer, the observers, and any `.send` follow-up actions to
/// completion before the next action starts; actions sent in sequence by one task are
/// processed in that sequence.
///
/// **Ownership.** Effects, middlewares and event sources run in tasks owned by the
/// store. ``close()`` cancels them all and waits until they have ended; releasing the
/// store cancels them too. No task outlives its store.
///
/// **Errors.** An error thrown by an effect goes to that effect's `catch:` handler,
/// which may turn it into an action; otherwise, like errors from middlewares, event
/// sources and effect handlers, it goes to `onError` (by default a line on standard
/// error). The store keeps running.
///
/// **Durability.** A store created with a `commit` function is durable: each change is
/// handed to that function (to be written to storage) before any observer sees it,
/// and a change that cannot be committed is undone. See ``Commit`` and
/// ``StoreTask/committed()``.
///
/// ```swift
/// let store = Store(
///   initialState: Counter(),
///   reducer: counter,
///   middlewares: [.favouritesSaving(dependencies: .live)]
/// )
/// await store.send(.incrementTapped)
/// await store.send(.nthPrimeTapped).finish()
/// print(await store.state)
/// await store.close()
/// ```
public actor Store<State: Sendable, Action: Sendable> {
  /// The current state; it changes only through ``send(_:)``. For a durable store,
  /// the last committed state.
  public internal(set) var state: State

  /// Runs `body` with the current state, on the store's executor: no action is reduced
  /// while it runs, so what it reads stays the current state until it returns.
  ///
  /// Reading the state here rather than keeping a copy of it matters for large states:
  /// a copy kept between actions is a second reference to the state's arrays, and the
  /// reducer's next change to one of them copies the array whole instead of changing it
  /// in place.
  public func withState<Result: Sendable>(_ body: @Sendable (State) throws -> Result) rethrows -> Result {
    try body(state)
  }

  /// Whether the store commits every change before publishing it (see ``Commit``).
  public nonisolated let isDurable: Bool

  /// Whether ``close()`` has been called; a closed store ignores actions.
  public internal(set) var isClosed = false

  /// Where effects' ``Send/event(_:_:to:)`` calls go; a server hosting the store listens.
  public nonisolated let events = HookEventOutlet()

  let reducer: Reducer<State, Action>
  let middlewares: [Middleware<State, Action>]
  let onError: @Sendable (any Error) -> Void
  let tasks = TaskRegistry()
  var observers: [Observer] = []
  /// A durable store's working state and pending commits; `nil` otherwise.
  var pipeline: CommitPipeline<State, Action>?

  /// Creates a store and starts its event sources.
  ///
  /// - Parameters:
  ///   - initialState: the state before any action.
  ///   - reducer: decides every state change and the effects to run.
  ///   - middlewares: async functions run for every action, concurrently, after the
  ///     reducer; an action one returns is sent back into the store.
  ///   - eventSources: streams of outside events, run until the store closes.
  ///   - onError: where errors of effects, middlewares and event sources go when no
  ///     `catch:` handler takes them, and failed commits of actions they sent. Called
  ///     on an arbitrary thread.
  ///   - commit: makes the store durable: called with each change, in order, one call
  ///     at a time, before observers see it; if it throws, the change is undone.
  ///     `nil` (the default): changes take effect at once.
  public init(
    initialState: State,
    reducer: Reducer<State, Action>,
    middlewares: [Middleware<State, Action>] = [],
    eventSources: [EventSource<Action>] = [],
    onError: @escaping @Sendable (any Error) -> Void = { writeUnhandledError($0) },
    commit: (@Sendable (Commit<State>) async throws -> Void)? = nil
  ) {
    self.state = initialState
    self.reducer = reducer
    self.middlewares = middlewares
    self.onError = onError
    self.isDurable = commit != nil
    self.pipeline = commit.map { CommitPipeline(commit: $0, initialState: initialState) }
    for source in eventSources {
      Self.start(source, registry: tasks, store: self, onError: onError)
    }
  }

  deinit {
    tasks.cancelAll()
    for observer in observers { observer.onClose?() }
  }

  /// Sends an action: runs the reducer now, notifies the observers, then starts the
  /// action's effects and all middlewares.
  ///
  /// Before it returns, `.send` follow-up actions from the reducer are processed too,
  /// in order. Actions that effects and middlewares send later come back through
  /// this method. An action sent to a closed store is ignored.
  ///
  /// With no effect and no middleware, no task is created.
  ///
  /// A durable store reduces the action now, but calls the observers, completes
  /// ``StoreTask/committed()`` and starts the effects only once the change is
  /// committed; see ``Commit``.
  ///
  /// - Returns: the work the action started; ``StoreTask/finish()`` waits for it.
  @discardableResult
  public func send(_ action: Action) -> StoreTask {
    if isDurable { return sendDurably(action, reportsFailureToStore: false, idempotencyKey: nil) }
    guard !isClosed else { return StoreTask() }
    let effect = reducer.reduce(into: &state, action: action)
    if !observers.isEmpty { notifyObservers() }
    if effect.isNone && middlewares.isEmpty { return StoreTask() }
    return startWork(of: action, effect: effect)
  }

  /// Sends an action that carries its sender's idempotency key: a durable store hands
  /// the key to its commit function together with the change the action made (see
  /// ``Commit/idempotencyKeys``), so a journal can record that the action is applied in
  /// the same write that applies it. A store without a commit function ignores the key.
  @discardableResult
  public func send(_ action: Action, idempotencyKey: String?) -> StoreTask {
    guard isDurable else { return send(action) }
    return sendDurably(action, reportsFailureToStore: false, idempotencyKey: idempotencyKey)
  }

  /// Cancels every task the store owns (effects, middlewares, event sources), waits
  /// until all of them have ended, and ends every ``states`` sequence. Afterwards the
  /// store ignores actions. Calling it again waits the same way.
  ///
  /// A durable store first finishes the commits of the actions it has reduced (their
  /// observers are called; their effects do not start), so closing drains it.
  public func close() async {
    isClosed = true
    if isDurable { await waitForCommits() }
    let closing = observers
    observers = []
    for observer in closing { observer.onClose?() }
    await tasks.closeAndCancelAll()
  }

  /// The registry of the store's tasks, for the TestStore's checks.
  package nonisolated var ownedTasks: TaskRegistry { tasks }
}
