/// A durable store's order of work per action: reduce on the working state, commit,
/// then observers, then the sender's answer, then the effects.
///
/// Only one commit is in flight at a time. Actions sent meanwhile are reduced on top
/// of the uncommitted state (so every sender keeps its order and reducers never wait)
/// and go together into the next commit. A failed commit returns the store to its last
/// committed state and fails every action reduced since, in flight or waiting: each
/// was computed from a state that never became true.
extension Store {
  /// `send` for actions fed back by effects and event sources: nobody awaits their
  /// commit, so a failure goes to `onError`.
  @discardableResult
  func sendFedBack(_ action: Action) -> StoreTask {
    isDurable ? sendDurably(action, reportsFailureToStore: true, idempotencyKey: nil) : send(action)
  }

  /// Reduces `action` and its `.send` follow-ups on the working state and queues them
  /// for the next commit, starting the commit loop if it is idle.
  func sendDurably(_ action: Action, reportsFailureToStore: Bool, idempotencyKey: String?) -> StoreTask {
    let handle = CommitHandle()
    guard !isClosed else {
      handle.fail(.storeClosed)
      return StoreTask(commit: handle)
    }
    var steps: [CommitPipeline<State, Action>.Step] = []
    var queue = [action]
    var next = 0
    while next < queue.count {
      let action = queue[next]
      next += 1
      let effect = reducer.reduce(into: &pipeline!.working, action: action)
      Self.collectSends(of: effect, into: &queue)
      steps.append(.init(action: action, state: pipeline!.working, effect: effect))
    }
    pipeline!.pending.append(
      .init(
        steps: steps, handle: handle, reportsFailureToStore: reportsFailureToStore,
        idempotencyKey: idempotencyKey))
    if !pipeline!.isCommitting {
      pipeline!.isCommitting = true
      // Runs after this send returns, so actions sent in the same turn share the commit.
      Task { await self.runCommits() }
    }
    return StoreTask(commit: handle)
  }

  /// Commits pending batches one after another until none is left. While it awaits
  /// the commit function, the actor is free: other sends reduce and queue.
  private func runCommits() async {
    let commitFunction = pipeline!.commit
    while !pipeline!.pending.isEmpty {
      let batch = pipeline!.takeBatch()
      let target = pipeline!.working
      let commit = Commit(
        previous: state, state: target, actionCount: batch.reduce(0) { $0 + $1.steps.count },
        idempotencyKeys: batch.compactMap(\.idempotencyKey))
      do {
        try await commitFunction(commit)
        publish(batch)
      } catch {
        rollBack(batch + pipeline!.takeBatch(), error: error)
      }
    }
    for waiter in pipeline!.becomeIdle() { waiter.resume() }
  }

  /// After a commit: per action, in order, observers see each state, the sender hears
  /// back, then the effects start (not once the store is closing).
  private func publish(_ batch: [CommitPipeline<State, Action>.Entry]) {
    for entry in batch {
      for step in entry.steps {
        state = step.state
        if !observers.isEmpty { notifyObservers() }
      }
      entry.handle.markCommitted()
      var started: [Task<Void, Never>] = []
      var alreadyReduced: [Action] = []
      if !isClosed {
        for step in entry.steps {
          startEffects(
            of: step.action, effect: step.effect, state: step.state, started: &started,
            followUps: &alreadyReduced)
        }
      }
      entry.handle.markStarted(StoreTask(started))
    }
  }

  /// After a failed commit: back to the committed state; every action reduced since fails.
  private func rollBack(_ entries: [CommitPipeline<State, Action>.Entry], error: any Error) {
    pipeline!.working = state
    let failure = CommitError.failed(error)
    for entry in entries {
      entry.handle.fail(failure)
      if entry.reportsFailureToStore { onError(failure) }
    }
  }

  /// Waits until no commit is in flight or pending.
  func waitForCommits() async {
    guard pipeline!.isCommitting else { return }
    await withCheckedContinuation { pipeline!.idleWaiters.append($0) }
  }

  /// The `.send` actions of an effect, in the order the store would process them.
  private static func collectSends(of effect: Effect<Action>, into queue: inout [Action]) {
    switch effect.operation {
    case .none, .run, .cancel: return
    case .send(let action): queue.append(action)
    case .merge(let effects): for effect in effects { collectSends(of: effect, into: &queue) }
    case .cancellable(_, _, let effect): collectSends(of: effect, into: &queue)
    }
  }
}
