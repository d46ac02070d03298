import Statecast
import StatecastTesting
import Testing

/// A request feature: each request waits for its gate, then answers.
struct Requests: Equatable, Sendable {
  var answers: [Int] = []
}

enum RequestsAction: Equatable, Sendable {
  case requested(Int, cancelInFlight: Bool)
  case cancelTapped
  case answered(Int)
}

enum RequestID: Hashable, Sendable { case answer, other }

@Suite(.timeLimit(.minutes(1))) struct CancellationTests {
  /// Work for request `n` waits for `gates[n]`, ignoring cancellation, then answers.
  static func reducer(gates: [Gate], started: AsyncStream<Int>.Continuation, cancelled: Recorder<Int>)
    -> Reducer<Requests, RequestsAction>
  {
    Reducer { state, action in
      switch action {
      case .requested(let n, let cancelInFlight):
        return .run { send in
          await withTaskCancellationHandler {
            started.yield(n)
            await gates[n].wait()
          } onCancel: {
            cancelled.record(n)
          }
          await send(.answered(n))
        }
        .cancellable(id: RequestID.answer, cancelInFlight: cancelInFlight)
      case .cancelTapped:
        return .cancel(id: RequestID.answer)
      case .answered(let n):
        state.answers.append(n)
        return .none
      }
    }
  }

  /// The request feature in a TestStore with `count` closed gates, the requests as they
  /// start, and the requests whose work was cancelled.
  static func requests(gates count: Int) -> (
    store: TestStore<Requests, RequestsAction>, gates: [Gate], starts: AsyncStream<Int>.Iterator,
    cancelled: Recorder<Int>
  ) {
    let gates = (0..<count).map { _ in Gate() }
    let started = AsyncStream.makeStream(of: Int.self)
    let cancelled = Recorder<Int>()
    let store = TestStore(
      initialState: Requests(),
      reducer: reducer(gates: gates, started: started.continuation, cancelled: cancelled)
    )
    return (store, gates, started.stream.makeAsyncIterator(), cancelled)
  }

  @Test func aLaterRequestCancelsTheOneInFlight() async {
    let (store, gates, firstStarts, cancelled) = Self.requests(gates: 2)
    var starts = firstStarts
    await store.send(.requested(0, cancelInFlight: true))
    #expect(await starts.next() == 0)
    await store.send(.requested(1, cancelInFlight: true))
    #expect(await starts.next() == 1)
    #expect(cancelled.values == [0])
    gates[0].open()  // the cancelled request's answer must not arrive
    gates[1].open()
    await store.receive(.answered(1)) { $0.answers = [1] }
    await store.finish()
  }

  @Test func withoutCancelInFlightBothRequestsAnswer() async {
    let (store, gates, firstStarts, cancelled) = Self.requests(gates: 2)
    var starts = firstStarts
    await store.send(.requested(0, cancelInFlight: false))
    #expect(await starts.next() == 0)
    await store.send(.requested(1, cancelInFlight: false))
    gates[0].open()
    await store.receive(.answered(0)) { $0.answers = [0] }
    gates[1].open()
    await store.receive(.answered(1)) { $0.answers = [0, 1] }
    await store.finish()
    #expect(cancelled.values.isEmpty)
  }

  @Test func cancelByIdStopsTheWorkAndItsActions() async {
    let (store, gates, firstStarts, cancelled) = Self.requests(gates: 1)
    var starts = firstStarts
    await store.send(.requested(0, cancelInFlight: false))
    #expect(await starts.next() == 0)
    await store.send(.cancelTapped)
    #expect(cancelled.values == [0])
    gates[0].open()
    await store.finish()
  }

  @Test func cancellingOneIdLeavesOthersRunning() async {
    let gate = Gate()
    let reducer = Reducer<Requests, RequestsAction> { state, action in
      switch action {
      case .requested(let n, _):
        return .run { send in
          await gate.wait()
          await send(.answered(n))
        }
        .cancellable(id: n == 0 ? RequestID.answer : RequestID.other)
      case .cancelTapped:
        return .cancel(id: RequestID.answer)
      case .answered(let n):
        state.answers.append(n)
        return .none
      }
    }
    let store = TestStore(initialState: Requests(), reducer: reducer)
    await store.send(.requested(0, cancelInFlight: false))
    await store.send(.requested(1, cancelInFlight: false))
    await store.send(.cancelTapped)
    gate.open()
    await store.receive(.answered(1)) { $0.answers = [1] }
    await store.finish()
  }

  @Test func storeTaskCancelStopsTheActionsWork() async {
    let gate = Gate()
    let reducer = Reducer<Requests, RequestsAction> { state, action in
      switch action {
      case .requested(let n, _):
        return .run { send in
          await gate.wait()
          await send(.answered(n))
        }
      case .answered(let n):
        state.answers.append(n)
        return .none
      case .cancelTapped:
        return .none
      }
    }
    let store = Store(initialState: Requests(), reducer: reducer)
    let task = await store.send(.requested(7, cancelInFlight: false))
    #expect(!task.isEmpty)
    task.cancel()
    #expect(task.isCancelled)
    gate.open()
    await task.finish()
    #expect(await store.state.answers.isEmpty)
  }
}
