internal import CLibWebSockets
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

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
final class ConnectionTable: @unchecked Sendable {
  // Sendable: every stored property below the lock is read and written under `lock`.

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
    /// Nothing to do.
    case idle
  }

  private struct Slot {
    var generation: UInt32 = 0
    var isOpen = false
    var queue = FrameQueue<OutboundFrame>()
    var queuedBytes = 0
    var congested = false
    var wakePending = false
    var pendingClose: PendingClose?
    var killRequested = false
  }

  /// The close of a connection whose backlog exceeded the hard limit.
  static let tooSlow = PendingClose(code: 1008, reason: "too slow")

  /// A pthread mutex (NSLock on Linux), not `Synchronization.Mutex`: ThreadSanitizer
  /// reports races inside `Mutex.withLock` on this toolchain that it does not report for
  /// a pthread mutex, and the transport's tests run under `--sanitize=thread`.
  private let lock = NSLock()
  private let highWatermark: Int
  private let hardLimit: Int
  /// Frames queued on the service thread itself (echo, or a handler sending from its
  /// callback) skip the `lws_cancel_service` round trip through the event loop's pipe:
  /// the callback dispatcher drains the wake list itself before returning to lws.
  private let serviceThread: ServiceThread

  // Guarded by `lock`:
  private var slots: [Slot] = []
  private var freeSlots: [UInt32] = []
  private var wakeList: [UInt32] = []
  private var wakeRequested = false
  private var context: OpaquePointer?
  private var openCount = 0
  private var draining = false
  private var stopRequested = false

  init(highWatermark: Int, hardLimit: Int, serviceThread: ServiceThread = ServiceThread()) {
    self.highWatermark = highWatermark
    self.hardLimit = hardLimit
    self.serviceThread = serviceThread
  }

  // MARK: - Any thread

  /// Queues `frame` for `id`. Any thread.
  func enqueue(_ frame: OutboundFrame, to id: ConnectionID) -> SendOutcome {
    lock.withLock { enqueueLocked(frame, to: id) }
  }

  /// Queues one shared `frame` for each of `ids` under a single lock acquisition, and
  /// reports the connections that did not simply queue it. Any thread.
  func enqueue(_ frame: OutboundFrame, to ids: some Sequence<ConnectionID>) -> BroadcastOutcome {
    var outcome = BroadcastOutcome()
    lock.withLock {
      for id in ids {
        switch enqueueLocked(frame, to: id) {
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
    lock.withLock {
      guard let index = openIndex(of: id), slots[index].pendingClose == nil, !slots[index].killRequested
      else {
        return false
      }
      slots[index].pendingClose = PendingClose(code: code, reason: reason)
      if slots[index].queue.isEmpty { scheduleWakeLocked(index) }
      return true
    }
  }

  /// The number of established WebSocket connections. Any thread.
  var connectionCount: Int {
    lock.withLock { openCount }
  }

  /// Starts a graceful shutdown: every open connection closes with `code` after its
  /// queued frames, and the service loop is woken to stop listening. Any thread.
  func beginShutdown(code: UInt16, reason: String) {
    lock.withLock {
      draining = true
      for index in slots.indices where slots[index].isOpen {
        guard slots[index].pendingClose == nil, !slots[index].killRequested else { continue }
        slots[index].pendingClose = PendingClose(code: code, reason: reason)
        if slots[index].queue.isEmpty { scheduleWakeLocked(index) }
      }
      wakeLoopLocked()
    }
  }

  /// Makes the service loop exit at its next iteration, whatever is still open. Any thread.
  func requestStop() {
    lock.withLock {
      stopRequested = true
      wakeLoopLocked()
    }
  }

  // MARK: - Service thread

  /// Records the context the service loop runs, which `lws_cancel_service` may now wake.
  /// Service thread (or the starting thread, before the service thread exists).
  func attach(_ context: OpaquePointer) {
    lock.withLock { self.context = context }
  }

  /// Forgets the context so that no thread wakes it any more: called on the service
  /// thread right before `lws_context_destroy`.
  func detach() {
    lock.withLock {
      context = nil
      stopRequested = true
    }
  }

  /// Allocates the id of a newly established connection. Service thread.
  func open() -> ConnectionID {
    serviceThread.check()
    return lock.withLock {
      let index: Int
      if let free = freeSlots.popLast() {
        index = Int(free)
      } else {
        index = slots.count
        slots.append(Slot())
      }
      slots[index].generation &+= 1
      if slots[index].generation == 0 { slots[index].generation = 1 }
      slots[index].isOpen = true
      openCount += 1
      return ConnectionID(slot: UInt32(index), generation: slots[index].generation)
    }
  }

  /// Frees `id`'s slot and drops its backlog; later sends to `id` answer `.closed`.
  /// Service thread, when the connection has closed.
  func release(_ id: ConnectionID) {
    serviceThread.check()
    lock.withLock {
      guard let index = openIndex(of: id) else { return }
      let wakePending = slots[index].wakePending
      slots[index] = Slot(generation: slots[index].generation, wakePending: wakePending)
      freeSlots.append(UInt32(index))
      openCount -= 1
    }
  }

  /// Moves the connections that need attention into `wakes` (emptied first) and re-arms
  /// the coalesced wake-up. Service thread, on `LWS_CALLBACK_EVENT_WAIT_CANCELLED`.
  func takeWakes(into wakes: inout [Wake]) {
    serviceThread.check()
    wakes.removeAll(keepingCapacity: true)
    lock.withLock {
      wakeRequested = false
      for slot in wakeList {
        let index = Int(slot)
        slots[index].wakePending = false
        guard slots[index].isOpen else { continue }
        let id = ConnectionID(slot: slot, generation: slots[index].generation)
        wakes.append(Wake(id: id, kill: slots[index].killRequested ? Self.tooSlow : nil))
      }
      wakeList.removeAll(keepingCapacity: wakeList.capacity <= 4_096)
    }
  }

  /// Takes the next step for a writable connection. Service thread, in `SERVER_WRITEABLE`.
  func nextWrite(for id: ConnectionID) -> WriteStep {
    serviceThread.check()
    return lock.withLock {
      guard let index = openIndex(of: id) else { return .idle }
      if slots[index].killRequested { return .close(Self.tooSlow) }
      if let frame = slots[index].queue.popFirst() {
        slots[index].queuedBytes -= frame.count
        let empty = slots[index].queue.isEmpty
        var drained = false
        if empty && slots[index].congested {
          slots[index].congested = false
          drained = slots[index].pendingClose == nil
        }
        return .frame(frame, drained: drained, more: !empty || slots[index].pendingClose != nil)
      }
      if let close = slots[index].pendingClose { return .close(close) }
      return .idle
    }
  }

  /// Whether the loop should exit, whether a shutdown is draining, and how many
  /// connections are still open. Service thread, once per loop iteration.
  func loopState() -> (stop: Bool, draining: Bool, openCount: Int) {
    serviceThread.check()
    return lock.withLock { (stopRequested, draining, openCount) }
  }

  // MARK: - Under the lock

  private func openIndex(of id: ConnectionID) -> Int? {
    let index = Int(id.slot)
    guard index < slots.count, slots[index].isOpen, slots[index].generation == id.generation else {
      return nil
    }
    return index
  }

  private func enqueueLocked(_ frame: OutboundFrame, to id: ConnectionID) -> SendOutcome {
    guard let index = openIndex(of: id), slots[index].pendingClose == nil, !slots[index].killRequested else {
      return .closed
    }
    let wasEmpty = slots[index].queue.isEmpty
    if !wasEmpty && slots[index].queuedBytes + frame.count > hardLimit {
      slots[index].killRequested = true
      slots[index].queue.removeAll()
      slots[index].queuedBytes = 0
      scheduleWakeLocked(index)
      return .closed
    }
    slots[index].queue.append(frame)
    slots[index].queuedBytes += frame.count
    if wasEmpty { scheduleWakeLocked(index) }
    if slots[index].queuedBytes > highWatermark { slots[index].congested = true }
    return slots[index].congested ? .congested : .queued
  }

  private func scheduleWakeLocked(_ index: Int) {
    if !slots[index].wakePending {
      slots[index].wakePending = true
      wakeList.append(UInt32(index))
    }
    wakeLoopLocked()
  }

  /// Wakes the service loop for work that is not a connection's frames (a rendered page
  /// to write). Any thread but the service thread.
  func wakeLoop() {
    lock.withLock { wakeLoopLocked() }
  }

  /// Wakes the service loop once per iteration, never after `detach` (`lws_cancel_service`
  /// dereferences the context, which is about to be destroyed), and never from the
  /// service thread itself (it drains the wake list after every callback that can queue
  /// frames).
  private func wakeLoopLocked() {
    guard !wakeRequested, let context else { return }
    if serviceThread.isCurrentAndRunning { return }
    wakeRequested = true
    lws_cancel_service(context)
  }
}
