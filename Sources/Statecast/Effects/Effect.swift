/// Work a reducer asks the store to do after it has changed the state: a value, not a
/// running task.
///
/// A reducer stays pure by *describing* side effects instead of performing them. The
/// store interprets the returned effect: `.send` feeds an action straight back,
/// `.run` starts async work (owned and cancelled by the store) that may send any number
/// of actions, and `.merge`, `.map`, `.cancellable(id:)` and `.cancel(id:)` compose
/// them. Effects change state only through the actions they send back.
///
/// ```swift
/// case .nthPrimeButtonTapped:
///   state.isLoading = true
///   return .run { [n = state.count] send in
///     await send(.nthPrimeResponse(try await primes.nth(n)))
///   } catch: { error, send in
///     await send(.nthPrimeFailed)
///   }
///   .cancellable(id: RequestID.nthPrime, cancelInFlight: true)
/// ```
public struct Effect<Action: Sendable>: Sendable {
  /// The shape of an effect; the store walks it when the reducer returns.
  package indirect enum Operation: Sendable {
    case none
    case send(Action)
    case run(Run)
    case merge([Effect])
    case cancellable(id: CancelID, cancelInFlight: Bool, Effect)
    case cancel(id: CancelID)
  }

  /// Async work with its error route.
  package struct Run: Sendable {
    package let priority: TaskPriority?
    package let operation: @Sendable (Send<Action>) async throws -> Void
    package let handler: (@Sendable (any Error, Send<Action>) async -> Void)?
  }

  package let operation: Operation

  package init(operation: Operation) {
    self.operation = operation
  }

  /// An effect that does nothing: the reducer only changed the state.
  public static var none: Self { Self(operation: .none) }

  /// Feeds `action` back into the store right after the current action, before `send`
  /// returns; use it to share logic between actions without async work.
  public static func send(_ action: Action) -> Self {
    Self(operation: .send(action))
  }

  /// Runs async work that may send any number of actions back into the store.
  ///
  /// The work runs concurrently with other effects and middlewares and is cancelled
  /// when the store closes. An error it throws goes to `handler` (which may turn it
  /// into an action); without a handler it goes to the store's `onError`. Errors
  /// thrown because the work was cancelled are dropped. Once the work is cancelled,
  /// `send` no longer delivers actions.
  ///
  /// - Parameters:
  ///   - priority: the priority of the task running the work.
  ///   - operation: the work; `send` feeds actions back to the store.
  ///   - handler: turns an error thrown by `operation` into actions.
  public static func run(
    priority: TaskPriority? = nil,
    operation: @escaping @Sendable (_ send: Send<Action>) async throws -> Void,
    catch handler: (@Sendable (_ error: any Error, _ send: Send<Action>) async -> Void)? = nil
  ) -> Self {
    Self(operation: .run(Run(priority: priority, operation: operation, handler: handler)))
  }

  /// Runs several effects at once; their order is the order in which they start.
  public static func merge(_ effects: Self...) -> Self {
    merge(effects)
  }

  /// Runs several effects at once; their order is the order in which they start.
  public static func merge(_ effects: some Sequence<Self>) -> Self {
    var kept: [Self] = []
    for effect in effects {
      switch effect.operation {
      case .none: continue
      case .merge(let nested): kept.append(contentsOf: nested)
      default: kept.append(effect)
      }
    }
    switch kept.count {
    case 0: return .none
    case 1: return kept[0]
    default: return Self(operation: .merge(kept))
    }
  }

  /// Merges this effect with another one.
  public func merge(with other: Self) -> Self {
    .merge(self, other)
  }

  /// Whether this effect does nothing, which lets reducer tests check "no effect"
  /// without a store.
  public var isNone: Bool {
    if case .none = operation { return true }
    return false
  }
}
