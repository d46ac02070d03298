import Synchronization

/// Where a store's effects put ``HookEvent``s: the server hosting the store listens here
/// and delivers each event to the members' tabs; with no listener (a test, a tool) an
/// event goes nowhere.
///
/// It is not part of the store's state and needs no hop to the store's executor: an
/// effect calls it from whatever task it runs on.
public final class HookEventOutlet: Sendable {
  private let listeners = Mutex<[Int: @Sendable (HookEvent) -> Void]>([:])
  private let nextID = Atomic<Int>(0)

  public init() {}

  /// Calls `listener` with every event sent from now on, on the sender's task, until
  /// the returned function is called. Keep it short and non-blocking.
  public func listen(_ listener: @escaping @Sendable (HookEvent) -> Void) -> @Sendable () -> Void {
    let id = nextID.add(1, ordering: .relaxed).newValue
    listeners.withLock { $0[id] = listener }
    return { [weak self] in _ = self?.listeners.withLock { $0.removeValue(forKey: id) } }
  }

  /// Hands `event` to every listener.
  public func send(_ event: HookEvent) {
    let current = listeners.withLock { Array($0.values) }
    for listener in current { listener(event) }
  }
}
