internal import CLibWebSockets
import Foundation
import StatecastTransport

/// The client's state shared between tasks and the service thread: connect requests,
/// each open connection's outbound queue and close request, and the connections to wake.
/// One lock guards everything in it.
///
/// As on the server, a connection with queued frames or a pending close always has a
/// `CLIENT_WRITEABLE` coming, so only work landing on an idle connection wakes the loop.
final class ClientCore: @unchecked Sendable {
  // Sendable: every stored property is guarded by `lock`.

  /// A close performed once the frames queued before it are written.
  struct PendingClose: Sendable {
    var code: UInt16
    var reason: String
  }

  enum WriteStep {
    case frame(ClientFrame, more: Bool)
    case close(PendingClose)
    case idle
  }

  private struct Outbound {
    var frames = FrameQueue<ClientFrame>()
    var close: PendingClose?
    var wakePending = false

    var isEmpty: Bool { frames.isEmpty }
  }

  private let lock = NSLock()
  private var nextID: UInt64 = 1
  private var requests: [ConnectRequest] = []
  private var outbound: [UInt64: Outbound] = [:]
  private var wakeList: [UInt64] = []
  private var wakeRequested = false
  private var context: OpaquePointer?
  private let serviceThread: ServiceThread

  init(serviceThread: ServiceThread) {
    self.serviceThread = serviceThread
  }

  /// A fresh connection id (never reused). Any thread.
  func makeID() -> UInt64 {
    lock.withLock {
      defer { nextID += 1 }
      return nextID
    }
  }

  /// Queues a connect for the service thread; `false` if the engine has no context.
  /// Any thread.
  func enqueue(_ request: ConnectRequest) -> Bool {
    lock.withLock {
      guard context != nil else { return false }
      requests.append(request)
      wakeLoopLocked()
      return true
    }
  }

  /// Queues the frames of one message; `false` if the connection is closed or closing.
  /// Any thread.
  func send(_ frames: [ClientFrame], on id: UInt64) -> Bool {
    lock.withLock {
      // Read fields, never bind the whole entry: a live copy would make the append below
      // copy the queue's storage.
      guard outbound[id] != nil, outbound[id]!.close == nil else { return false }
      let wasEmpty = outbound[id]!.isEmpty
      outbound[id]!.frames.append(contentsOf: frames)
      if wasEmpty { scheduleWakeLocked(id) }
      return true
    }
  }

  /// Asks for a close after the queued frames; `false` if already closed or closing.
  /// Any thread.
  func close(_ id: UInt64, code: UInt16, reason: String) -> Bool {
    lock.withLock {
      guard outbound[id] != nil, outbound[id]!.close == nil else { return false }
      outbound[id]!.close = PendingClose(code: code, reason: reason)
      if outbound[id]!.isEmpty { scheduleWakeLocked(id) }
      return true
    }
  }

  /// The number of open connections. Any thread.
  var connectionCount: Int {
    lock.withLock { outbound.count }
  }

  // MARK: - Service thread

  /// Records the context `lws_cancel_service` wakes. Creating thread, before the
  /// service thread starts.
  func attach(_ context: OpaquePointer) {
    lock.withLock { self.context = context }
  }

  /// Makes `id` sendable: called when its upgrade succeeded. Service thread.
  func open(_ id: UInt64) {
    serviceThread.check()
    lock.withLock { outbound[id] = Outbound() }
  }

  /// Forgets `id` and drops its queue: called when it closed. Service thread.
  func release(_ id: UInt64) {
    serviceThread.check()
    lock.withLock { _ = outbound.removeValue(forKey: id) }
  }

  /// Takes the connect requests and the connections to wake. Service thread, on
  /// `LWS_CALLBACK_EVENT_WAIT_CANCELLED`.
  func takeWork(requests taken: inout [ConnectRequest], wakes: inout [UInt64]) {
    serviceThread.check()
    taken.removeAll(keepingCapacity: true)
    wakes.removeAll(keepingCapacity: true)
    lock.withLock {
      wakeRequested = false
      swap(&taken, &requests)
      for id in wakeList where outbound[id] != nil {
        outbound[id]!.wakePending = false
        wakes.append(id)
      }
      wakeList.removeAll(keepingCapacity: true)
    }
  }

  /// The next thing to write on a writable connection. Service thread.
  func nextWrite(for id: UInt64) -> WriteStep {
    serviceThread.check()
    return lock.withLock {
      guard outbound[id] != nil else { return .idle }
      if let frame = outbound[id]!.frames.popFirst() {
        return .frame(frame, more: !outbound[id]!.isEmpty || outbound[id]!.close != nil)
      }
      if let close = outbound[id]!.close { return .close(close) }
      return .idle
    }
  }

  // MARK: - Under the lock

  private func scheduleWakeLocked(_ id: UInt64) {
    if outbound[id]?.wakePending == false {
      outbound[id]!.wakePending = true
      wakeList.append(id)
    }
    wakeLoopLocked()
  }

  /// One `lws_cancel_service` per loop iteration.
  private func wakeLoopLocked() {
    guard !wakeRequested, let context else { return }
    wakeRequested = true
    lws_cancel_service(context)
  }
}
