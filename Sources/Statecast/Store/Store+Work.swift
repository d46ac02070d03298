extension Store {
  /// The slow path of `send`: interprets the effect, starts the async work, and
  /// processes `.send` follow-ups.
  func startWork(of action: Action, effect: Effect<Action>) -> StoreTask {
    var started: [Task<Void, Never>] = []
    var followUps: [Action] = []
    var next = 0
    var action = action
    var effect = effect
    while true {
      startEffects(of: action, effect: effect, state: state, started: &started, followUps: &followUps)
      guard next < followUps.count else { break }
      action = followUps[next]
      next += 1
      effect = reducer.reduce(into: &state, action: action)
      if !observers.isEmpty { notifyObservers() }
    }
    return StoreTask(started)
  }

  /// Starts the work of one reducer run: its effect's runs and, with the action, every
  /// middleware, given the state that run produced. `.send` actions go to `followUps`.
  func startEffects(
    of action: Action,
    effect: Effect<Action>,
    state: State,
    started: inout [Task<Void, Never>],
    followUps: inout [Action]
  ) {
    var runs: [Effect<Action>.Run] = []
    interpret(effect, state: state, ids: [], runs: &runs, started: &started, followUps: &followUps)
    if !runs.isEmpty || !middlewares.isEmpty {
      started.append(
        Self.spawn(
          runs: runs, middlewares: middlewares, state: state, action: action,
          ids: [], registry: tasks, store: self, onError: onError
        )
      )
    }
  }

  /// Walks an effect in order: follow-up actions are queued, plain runs collected for
  /// the action's task group, cancellable runs started in their own task right away
  /// (so that a `.cancel(id:)` in the very next action finds them).
  private func interpret(
    _ effect: Effect<Action>,
    state: State,
    ids: [CancelID],
    runs: inout [Effect<Action>.Run],
    started: inout [Task<Void, Never>],
    followUps: inout [Action]
  ) {
    switch effect.operation {
    case .none:
      return
    case .send(let action):
      followUps.append(action)
    case .run(let run):
      if ids.isEmpty {
        runs.append(run)
      } else {
        started.append(
          Self.spawn(
            runs: [run], middlewares: [], state: state, action: nil,
            ids: ids, registry: tasks, store: self, onError: onError
          )
        )
      }
    case .merge(let effects):
      for effect in effects {
        interpret(effect, state: state, ids: ids, runs: &runs, started: &started, followUps: &followUps)
      }
    case .cancellable(let id, let cancelInFlight, let effect):
      if cancelInFlight { tasks.cancel(id: id) }
      interpret(effect, state: state, ids: ids + [id], runs: &runs, started: &started, followUps: &followUps)
    case .cancel(let id):
      tasks.cancel(id: id)
    }
  }

  /// Starts one task that runs the given effects and middlewares concurrently in a
  /// task group, then waits for the work of the actions they sent back.
  ///
  /// Static and nonisolated so that the task does not start on the store's executor;
  /// it holds the store weakly, so that releasing the store cancels it.
  private static func spawn(
    runs: [Effect<Action>.Run],
    middlewares: [Middleware<State, Action>],
    state: State,
    action: Action?,
    ids: [CancelID],
    registry: TaskRegistry,
    store: Store,
    onError: @escaping @Sendable (any Error) -> Void
  ) -> Task<Void, Never> {
    let priority = runs.count == 1 && middlewares.isEmpty ? runs[0].priority : nil
    let followUps = FollowUps()
    let send = Send<Action>(
      { [weak store] action in
        guard !Task.isCancelled, let store else { return }
        followUps.append(await store.sendFedBack(action))
      }, events: store.events)
    return registry.spawn(.effect, ids: ids, priority: priority) {
      if runs.count + middlewares.count == 1 {
        if let run = runs.first {
          await perform(run, send: send, onError: onError)
        } else if let action {
          await perform(middlewares[0], state: state, action: action, send: send, onError: onError)
        }
      } else {
        await withDiscardingTaskGroup { group in
          if let action {
            for middleware in middlewares {
              group.addTask {
                await perform(middleware, state: state, action: action, send: send, onError: onError)
              }
            }
          }
          for run in runs {
            group.addTask(priority: run.priority) {
              await perform(run, send: send, onError: onError)
            }
          }
        }
      }
      await followUps.finish()
    }
  }

  private static func perform(
    _ run: Effect<Action>.Run,
    send: Send<Action>,
    onError: @Sendable (any Error) -> Void
  ) async {
    do {
      try await run.operation(send)
    } catch {
      guard !isCancellation(error) else { return }
      if let handler = run.handler {
        await handler(error, send)
      } else {
        onError(error)
      }
    }
  }

  private static func perform(
    _ middleware: Middleware<State, Action>,
    state: State,
    action: Action,
    send: Send<Action>,
    onError: @Sendable (any Error) -> Void
  ) async {
    do {
      if let next = try await middleware.body(state, action) { await send(next) }
    } catch {
      if !isCancellation(error) { onError(error) }
    }
  }

  /// Starts an event source in a task the store owns.
  static func start(
    _ source: EventSource<Action>,
    registry: TaskRegistry,
    store: Store,
    onError: @escaping @Sendable (any Error) -> Void
  ) {
    let send = Send<Action>(
      { [weak store] action in
        guard !Task.isCancelled, let store else { return }
        await store.sendFedBack(action)
      }, events: store.events)
    _ = registry.spawn(.eventSource) {
      do {
        try await source.body(send)
      } catch {
        if !isCancellation(error) { onError(error) }
      }
    }
  }

  /// Errors that only report that the work was cancelled are not failures.
  private static func isCancellation(_ error: any Error) -> Bool {
    error is CancellationError || Task.isCancelled
  }
}
