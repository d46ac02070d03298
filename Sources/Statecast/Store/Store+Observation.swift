extension Store {
  /// One registered observer.
  struct Observer: Sendable {
    let flag: ObservationFlag
    let body: @Sendable (State) -> Void
    let onClose: (@Sendable () -> Void)?
  }

  /// Registers a function called with the new state after every reducer run,
  /// synchronously on the store's executor, in order, before ``send(_:)`` returns.
  ///
  /// Because it runs before `send` returns, whatever the observer does (encode the
  /// view, diff it, queue the patch) happens before the sender hears back. Keep it
  /// short: the store processes no other action meanwhile.
  ///
  /// - Parameters:
  ///   - includingCurrent: also call `observer` with the current state right away,
  ///     atomically with registering, so that no state is missed in between.
  ///   - observer: receives each new state.
  /// - Returns: the observation; cancelling it or letting it go ends it.
  public func observe(
    includingCurrent: Bool = false,
    _ observer: @escaping @Sendable (State) -> Void
  ) -> StoreObservation {
    let flag = ObservationFlag()
    if includingCurrent { observer(state) }
    if !isClosed {
      observers.append(Observer(flag: flag, body: observer, onClose: nil))
    }
    return StoreObservation(flag: flag)
  }

  /// Every state: the current one when iteration starts, then each new one in order.
  public nonisolated var states: StoreStates<State, Action> {
    StoreStates(store: self)
  }

  func makeStateStream() -> AsyncStream<State> {
    let (stream, continuation) = AsyncStream.makeStream(of: State.self, bufferingPolicy: .unbounded)
    continuation.yield(state)
    guard !isClosed else {
      continuation.finish()
      return stream
    }
    let flag = ObservationFlag()
    continuation.onTermination = { _ in flag.cancel() }
    observers.append(
      Observer(flag: flag, body: { continuation.yield($0) }, onClose: { continuation.finish() })
    )
    return stream
  }

  func notifyObservers() {
    var sawCancelled = false
    for observer in observers {
      if observer.flag.isCancelled {
        sawCancelled = true
      } else {
        observer.body(state)
      }
    }
    if sawCancelled { observers.removeAll { $0.flag.isCancelled } }
  }
}
