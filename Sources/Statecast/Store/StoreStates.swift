/// Every state of a store as an `AsyncSequence`: the current state when iteration
/// starts, then each new state in order, none lost or repeated.
///
/// Each iteration registers its own observer when it asks for its first element, with
/// an unbounded buffer, so a slow reader still sees every state. It ends when the
/// store closes, or when the iterating task stops.
///
/// ```swift
/// for await state in store.states { print(state.count) }
/// ```
public struct StoreStates<State: Sendable, Action: Sendable>: AsyncSequence, Sendable {
  public typealias Element = State
  public typealias Failure = Never

  let store: Store<State, Action>

  /// An iterator that starts with the current state.
  public func makeAsyncIterator() -> Iterator {
    Iterator(store: store)
  }

  /// The iterator of ``StoreStates``.
  public struct Iterator: AsyncIteratorProtocol {
    public typealias Element = State
    public typealias Failure = Never

    private var store: Store<State, Action>?
    private var stream: AsyncStream<State>.Iterator?

    init(store: Store<State, Action>) {
      self.store = store
    }

    /// The next state, or `nil` once the store has closed.
    public mutating func next() async -> State? {
      await next(isolation: nil)
    }

    /// The next state, or `nil` once the store has closed, on the caller's actor.
    public mutating func next(isolation actor: isolated (any Actor)?) async -> State? {
      if let store {
        self.store = nil
        stream = await store.makeStateStream().makeAsyncIterator()
      }
      return await stream?.next(isolation: actor)
    }
  }
}
