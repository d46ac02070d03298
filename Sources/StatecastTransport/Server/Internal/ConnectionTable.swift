/// The outbound side of every connection: bounded frame queues, pending closes, and the
/// list of connections the service thread must wake. Shared by the threads that send and
/// the service thread; one lock guards everything in it.
///
/// Why one table instead of a lock per connection: a broadcast queues one frame to many
/// connections under a single lock acquisition, and the service thread collects every
/// connection that has something new in one step. The lock is held only for O(1) work
/// per connection (an append of a reference, a counter), never for a system call except
/// the coalesced `lws_cancel_service` that wakes the loop.
///
/// The invariant that keeps wake-ups minimal: a connection with a non-empty queue or a
/// pending close always has a `SERVER_WRITEABLE` coming (requested when it was woken, or
/// re-requested by the service thread after a write that left more behind), so only a
/// frame that lands in an empty queue needs a wake-up.
final class ConnectionTable: Sendable {
  /// A close the service thread performs once the queue before it is written.
  struct PendingClose: Sendable, Equatable {
    var code: UInt16
    var reason: String
  }

  /// What the service thread does for one connection it was asked to wake.
  struct Wake {
    var id: ConnectionID
    /// Close at once, dropping the backlog (the hard limit was exceeded).
    var kill: PendingClose?
  }

  /// The next thing to do for a writable connection.
  enum WriteStep {
    /// Write this frame. `drained`: the connection was congested and its backlog is now
    /// written; `more`: something else is queued after it (a frame or a close).
    case frame(OutboundFrame, drained: Bool, more: Bool)
    /// Close the connection with this code and reason now.
    case close(PendingClose)
    /// The next frame is longer than the byte budget given: write what is gathered first.
    case overBudget
    /// Nothing to do.
    case idle
  }

  /// The close of a connection whose backlog exceeded the hard limit.
  static let tooSlow = PendingClose(code: 1008, reason: "too slow")

  /// A pthread mutex (NSLock on Linux, through ``Locked``), not `Synchronization.Mutex`:
  /// ThreadSanitizer reports races inside `Mutex.withLock` on this toolchain that it does
  /// not report for a pthread mutex, and the transport's tests run under
  /// `--sanitize=thread`.
  private let state: Locked<State>
  /// Frames queued on the service thread itself (echo, or a handler sending from its
  /// callback) skip the `lws_cancel_service` round trip through the event loop's pipe:
  /// the callback dispatcher drains the wake list itself before returning to lws.
  private let serviceThread: ServiceThread

  init(highWatermark: Int, hardLimit: Int, serviceThread: ServiceThread = ServiceThread()) {
    self.serviceThread = serviceThread
    state = Locked(State(highWatermark: highWatermark, hardLimit: hardLimit, serviceThread: serviceThread))
  }

  // MARK: - Any thread

  /// Queues `frame` for `id`. Any thread.
  func enqueue(_ frame: OutboundFrame, to id: ConnectionID) -> SendOutcome {
    state.withLock { $0.enqueue(frame, to: id) }
  }

  /// Queues one shared `frame` for each of `ids` under a single lock acquisition, and
  /// reports the connections that did not simply queue it. Any thread.
  func enqueue(_ frame: OutboundFrame, to ids: some Sequence<ConnectionID>) -> BroadcastOutcome {
    var outcome = BroadcastOutcome()
    state.withLock { state in
      for id in ids {
        switch state.enqueue(frame, to: id) {
        case .queued: break
        case .congested: outcome.congested.append(id)
        case .closed: outcome.closed.append(id)
        }
      }
    }
    return outcome
  }

  /// Asks for `id` to be closed with `code` once its queued frames are written; frames
  /// sent after this are dropped. Returns `false` if it is already closed or closing.
  /// Any thread.
  @discardableResult
  func requestClose(_ id: ConnectionID, code: UInt16, reason: String) -> Bool {
    state.withLock { state in
      guard let index = state.openIndex(of: id), state.slots[index].pendingClose == nil,
        !state.slots[index].killRequested
      else {
        return false
      }
      state.slots[index].pendingClose = PendingClose(code: code, reason: reason)
      if state.slots[index].queue.isEmpty { state.scheduleWake(index) }
      return true
    }
  }

  /// The number of established WebSocket connections. Any thread.
  var connectionCount: Int {
    state.withLock { $0.openCount }
  }

  /// Starts a graceful shutdown: every open connection closes with `code` after its
  /// queued frames, and the service loop is woken to stop listening. Any thread.
  func beginShutdown(code: UInt16, reason: String) {
    state.withLock { state in
      state.draining = true
      for index in state.slots.indices where state.slots[index].isOpen {
        guard state.slots[index].pendingClose == nil, !state.slots[index].killRequested else { continue }
        state.slots[index].pendingClose = PendingClose(code: code, reason: reason)
        if state.slots[index].queue.isEmpty { state.scheduleWake(index) }
      }
      state.wakeLoop()
    }
  }

  /// Makes the service loop exit at its next iteration, whatever is still open. Any thread.
  func requestStop() {
    state.withLock { state in
      state.stopRequested = true
      state.wakeLoop()
    }
  }

  /// Wakes the service loop for work that is not a connection's frames (a rendered page
  /// to write). Any thread but the service thread.
  func wakeLoop() {
    state.withLock { $0.wakeLoop() }
  }

  // MARK: - Service thread

  /// Records the context the service loop runs, which `lws_cancel_service` may now wake.
  /// Service thread (or the starting thread, before the service thread exists).
  func attach(_ waker: ContextWaker) {
    state.withLock { $0.waker = waker }
  }

  /// Forgets the context so that no thread wakes it any more: called on the service
  /// thread right before `lws_context_destroy`.
  func detach() {
    state.withLock { state in
      state.waker = nil
      state.stopRequested = true
    }
  }

  /// Allocates the id of a newly established connection. Service thread.
  func open() -> ConnectionID {
    serviceThread.check()
    return state.withLock { state in
      let index: Int
      if let free = state.freeSlots.popLast() {
        index = Int(free)
      } else {
        index = state.slots.count
        state.slots.append(Slot())
      }
      state.slots[index].generation &+= 1
      if state.slots[index].generation == 0 { state.slots[index].generation = 1 }
      state.slots[index].isOpen = true
      state.openCount += 1
      return ConnectionID(slot: UInt32(index), generation: state.slots[index].generation)
    }
  }

  /// Frees `id`'s slot and drops its backlog; later sends to `id` answer `.closed`.
  /// Service thread, when the connection has closed.
  func release(_ id: ConnectionID) {
    serviceThread.check()
    state.withLock { state in
      guard let index = state.openIndex(of: id) else { return }
      let wakePending = state.slots[index].wakePending
      state.slots[index] = Slot(generation: state.slots[index].generation, wakePending: wakePending)
      state.freeSlots.append(UInt32(index))
      state.openCount -= 1
    }
  }

  /// Moves the connections that need attention into `wakes` (emptied first) and re-arms
  /// the coalesced wake-up. Service thread, on `LWS_CALLBACK_EVENT_WAIT_CANCELLED`.
  func takeWakes(into wakes: inout [Wake]) {
    serviceThread.check()
    wakes.removeAll(keepingCapacity: true)
    state.withLock { state in
      state.wakeRequested = false
      for slot in state.wakeList {
        let index = Int(slot)
        state.slots[index].wakePending = false
        guard state.slots[index].isOpen else { continue }
        let id = ConnectionID(slot: slot, generation: state.slots[index].generation)
        wakes.append(Wake(id: id, kill: state.slots[index].killRequested ? Self.tooSlow : nil))
      }
      state.wakeList.removeAll(keepingCapacity: state.wakeList.capacity <= 4_096)
    }
  }

  /// Takes the next step for a writable connection: a frame of at most `budget` bytes,
  /// a close, or nothing. Service thread, in `SERVER_WRITEABLE`.
  func nextWrite(for id: ConnectionID, budget: Int = .max) -> WriteStep {
    serviceThread.check()
    return state.withLock { state in
      guard let index = state.openIndex(of: id) else { return .idle }
      if state.slots[index].killRequested { return .close(Self.tooSlow) }
      if let next = state.slots[index].queue.first, next.count > budget { return .overBudget }
      if let frame = state.slots[index].queue.popFirst() {
        state.slots[index].queuedBytes -= frame.count
        let empty = state.slots[index].queue.isEmpty
        var drained = false
        if empty && state.slots[index].congested {
          state.slots[index].congested = false
          drained = state.slots[index].pendingClose == nil
        }
        return .frame(frame, drained: drained, more: !empty || state.slots[index].pendingClose != nil)
      }
      if let close = state.slots[index].pendingClose { return .close(close) }
      return .idle
    }
  }

  /// Whether the loop should exit, whether a shutdown is draining, and how many
  /// connections are still open. Service thread, once per loop iteration.
  func loopState() -> (stop: Bool, draining: Bool, openCount: Int) {
    serviceThread.check()
    return state.withLock { ($0.stopRequested, $0.draining, $0.openCount) }
  }
}

extension ConnectionTable {
  fileprivate struct Slot: Sendable {
    var generation: UInt32 = 0
    var isOpen = false
    var queue = FrameQueue<OutboundFrame>()
    var queuedBytes = 0
    var congested = false
    var wakePending = false
    var pendingClose: PendingClose?
    var killRequested = false
  }

  /// Everything the table's lock guards, with the steps taken under it.
  fileprivate struct State: Sendable {
    let highWatermark: Int
    let hardLimit: Int
    let serviceThread: ServiceThread
    var slots: [Slot] = []
    var freeSlots: [UInt32] = []
    var wakeList: [UInt32] = []
    var wakeRequested = false
    var waker: ContextWaker?
    var openCount = 0
    var draining = false
    var stopRequested = false

    init(highWatermark: Int, hardLimit: Int, serviceThread: ServiceThread) {
      self.highWatermark = highWatermark
      self.hardLimit = hardLimit
      self.serviceThread = serviceThread
    }

    func openIndex(of id: ConnectionID) -> Int? {
      let index = Int(id.slot)
      guard index < slots.count, slots[index].isOpen, slots[index].generation == id.generation else {
        return nil
      }
      return index
    }

    mutating func enqueue(_ frame: OutboundFrame, to id: ConnectionID) -> SendOutcome {
      guard let index = openIndex(of: id), slots[index].pendingClose == nil, !slots[index].killRequested
      else {
        return .closed
      }
      let wasEmpty = slots[index].queue.isEmpty
      if !wasEmpty && slots[index].queuedBytes + frame.count > hardLimit {
        slots[index].killRequested = true
        slots[index].queue.removeAll()
        slots[index].queuedBytes = 0
        scheduleWake(index)
        return .closed
      }
      slots[index].queue.append(frame)
      slots[index].queuedBytes += frame.count
      if wasEmpty { scheduleWake(index) }
      if slots[index].queuedBytes > highWatermark { slots[index].congested = true }
      return slots[index].congested ? .congested : .queued
    }

    mutating func scheduleWake(_ index: Int) {
      if !slots[index].wakePending {
        slots[index].wakePending = true
        wakeList.append(UInt32(index))
      }
      wakeLoop()
    }

    /// Wakes the service loop once per iteration, never after `detach` (`lws_cancel_service`
    /// dereferences the context, which is about to be destroyed), and never from the
    /// service thread itself (it drains the wake list after every callback that can queue
    /// frames).
    mutating func wakeLoop() {
      guard !wakeRequested, let waker else { return }
      if serviceThread.isCurrentAndRunning { return }
      wakeRequested = true
      waker.wake()
    }
  }
}
