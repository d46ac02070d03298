/// The client's state shared between tasks and the service thread: connect requests,
/// each open connection's outbound queue and close request, and the connections to wake.
/// One lock guards everything in it.
///
/// As on the server, a connection with queued frames or a pending close always has a
/// `CLIENT_WRITEABLE` coming, so only work landing on an idle connection wakes the loop.
final class ClientCore: Sendable {
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

  private struct Outbound: Sendable {
    var frames = FrameQueue<ClientFrame>()
    var close: PendingClose?
    var wakePending = false

    var isEmpty: Bool { frames.isEmpty }
  }

  private struct State: Sendable {
    var nextID: UInt64 = 1
    var requests: [ConnectRequest] = []
    var outbound: [UInt64: Outbound] = [:]
    var wakeList: [UInt64] = []
    var wakeRequested = false
    var waker: ContextWaker?

    mutating func scheduleWake(_ id: UInt64) {
      if outbound[id]?.wakePending == false {
        outbound[id]!.wakePending = true
        wakeList.append(id)
      }
      wakeLoop()
    }

    /// One `lws_cancel_service` per loop iteration.
    mutating func wakeLoop() {
      guard !wakeRequested, let waker else { return }
      wakeRequested = true
      waker.wake()
    }
  }

  private let state = Locked(State())
  private let serviceThread: ServiceThread

  init(serviceThread: ServiceThread) {
    self.serviceThread = serviceThread
  }

  /// A fresh connection id (never reused). Any thread.
  func makeID() -> UInt64 {
    state.withLock { state in
      defer { state.nextID += 1 }
      return state.nextID
    }
  }

  /// Queues a connect for the service thread; `false` if the engine has no context.
  /// Any thread.
  func enqueue(_ request: ConnectRequest) -> Bool {
    state.withLock { state in
      guard state.waker != nil else { return false }
      state.requests.append(request)
      state.wakeLoop()
      return true
    }
  }

  /// Queues the frames of one message; `false` if the connection is closed or closing.
  /// Any thread.
  func send(_ frames: [ClientFrame], on id: UInt64) -> Bool {
    state.withLock { state in
      // Read fields, never bind the whole entry: a live copy would make the append below
      // copy the queue's storage.
      guard state.outbound[id] != nil, state.outbound[id]!.close == nil else { return false }
      let wasEmpty = state.outbound[id]!.isEmpty
      state.outbound[id]!.frames.append(contentsOf: frames)
      if wasEmpty { state.scheduleWake(id) }
      return true
    }
  }

  /// Asks for a close after the queued frames; `false` if already closed or closing.
  /// Any thread.
  func close(_ id: UInt64, code: UInt16, reason: String) -> Bool {
    state.withLock { state in
      guard state.outbound[id] != nil, state.outbound[id]!.close == nil else { return false }
      state.outbound[id]!.close = PendingClose(code: code, reason: reason)
      if state.outbound[id]!.isEmpty { state.scheduleWake(id) }
      return true
    }
  }

  /// The number of open connections. Any thread.
  var connectionCount: Int {
    state.withLock { $0.outbound.count }
  }

  // MARK: - Service thread

  /// Records the context `lws_cancel_service` wakes. Creating thread, before the
  /// service thread starts.
  func attach(_ waker: ContextWaker) {
    state.withLock { $0.waker = waker }
  }

  /// Makes `id` sendable: called when its upgrade succeeded. Service thread.
  func open(_ id: UInt64) {
    serviceThread.check()
    state.withLock { $0.outbound[id] = Outbound() }
  }

  /// Forgets `id` and drops its queue: called when it closed. Service thread.
  func release(_ id: UInt64) {
    serviceThread.check()
    state.withLock { _ = $0.outbound.removeValue(forKey: id) }
  }

  /// Takes the connect requests and the connections to wake. Service thread, on
  /// `LWS_CALLBACK_EVENT_WAIT_CANCELLED`.
  func takeWork(requests taken: inout [ConnectRequest], wakes: inout [UInt64]) {
    serviceThread.check()
    taken.removeAll(keepingCapacity: true)
    wakes.removeAll(keepingCapacity: true)
    state.withLock { state in
      state.wakeRequested = false
      swap(&taken, &state.requests)
      for id in state.wakeList where state.outbound[id] != nil {
        state.outbound[id]!.wakePending = false
        wakes.append(id)
      }
      state.wakeList.removeAll(keepingCapacity: true)
    }
  }

  /// The next thing to write on a writable connection. Service thread.
  func nextWrite(for id: UInt64) -> WriteStep {
    serviceThread.check()
    return state.withLock { state in
      guard state.outbound[id] != nil else { return .idle }
      if let frame = state.outbound[id]!.frames.popFirst() {
        return .frame(frame, more: !state.outbound[id]!.isEmpty || state.outbound[id]!.close != nil)
      }
      if let close = state.outbound[id]!.close { return .close(close) }
      return .idle
    }
  }
}
