public import Statecast

extension FastingTimer {
  /// The functional core: the next state for an action, nothing else.
  ///
  /// ```swift
  /// let next = FastingTimer.reducer.reduce(into: &state, action: .client(.start))
  /// ```
  public static let reducer = Reducer<State, Action>.pure { state, action in
    var state = state
    state.request = nil
    switch action {
    case .client(.start):
      switch state.phase {
      case .notStarted, .finished:
        state.fastNumber += 1
        state.phase = .fasting(elapsedSeconds: 0)
        state.sharingStatus = .idle
        state.request = .tick(fast: state.fastNumber)
      case .fasting:
        break
      }

    case .timerTicked(let fast):
      guard fast == state.fastNumber, case .fasting(let elapsed) = state.phase else { break }
      state.phase = .fasting(elapsedSeconds: elapsed + 1)
      state.request = .tick(fast: fast)

    case .client(.finish):
      guard case .fasting(let elapsed) = state.phase else { break }
      state.phase = .finished(totalSeconds: elapsed)

    case .client(.reset):
      state.phase = .notStarted
      state.sharingStatus = .idle

    case .client(.share):
      guard case .finished(let total) = state.phase else { break }
      switch state.sharingStatus {
      case .idle, .failed:
        state.sharingStatus = .sharing
        state.request = .share(FastSummary(fastNumber: state.fastNumber, seconds: total))
      case .sharing, .shared:
        break
      }

    case .shareSucceeded(let fast):
      guard fast == state.fastNumber, state.sharingStatus == .sharing else { break }
      state.sharingStatus = .shared

    case .shareFailed(let fast, let message):
      guard fast == state.fastNumber, state.sharingStatus == .sharing else { break }
      state.sharingStatus = .failed(message: message)
    }
    return state
  }

  /// The imperative shell: a timer that ticks a running fast once a second on the
  /// injected clock.
  ///
  /// Each accepted tick asks for the next one, so the chain stops by itself when the
  /// fast is finished or reset: the tick already waiting arrives, the reducer ignores
  /// it, and no further tick is asked for.
  public static func timer(dependencies: Dependencies) -> Middleware<State, Action> {
    Middleware(dependencies: dependencies) { state, _, dependencies in
      guard case .tick(let fast) = state.request else { return nil }
      try await dependencies.clock.sleep(for: .seconds(1))
      return .timerTicked(fast: fast)
    }
  }

  /// The imperative shell: shares a finished fast and reports how it went.
  public static func sharing(dependencies: Dependencies) -> Middleware<State, Action> {
    Middleware(dependencies: dependencies) { state, _, dependencies in
      guard case .share(let summary) = state.request else { return nil }
      do {
        try await dependencies.share(summary)
        return .shareSucceeded(fast: summary.fastNumber)
      } catch is CancellationError {
        return nil
      } catch {
        return .shareFailed(fast: summary.fastNumber, message: describe(error))
      }
    }
  }

  /// Both middlewares, in the order a store runs them.
  public static func middlewares(dependencies: Dependencies) -> [Middleware<State, Action>] {
    [timer(dependencies: dependencies), sharing(dependencies: dependencies)]
  }

  /// A store for one browser, with no fast started.
  public static func makeStore(dependencies: Dependencies, join: Join) -> Store<State, Action> {
    Store(initialState: State(), reducer: reducer, middlewares: middlewares(dependencies: dependencies))
  }
}
