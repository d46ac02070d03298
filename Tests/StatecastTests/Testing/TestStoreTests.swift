import Statecast
import StatecastTesting
import Testing

/// The "nth prime" counter: a cancellable async effect and a clock-driven timer.
struct Primes: Equatable, Sendable {
  var count = 0
  var prime: Int?
  var isLoading = false
  var seconds = 0
}

enum PrimesAction: Equatable, Sendable {
  case incrementTapped
  case nthPrimeTapped
  case nthPrimeResponse(Int)
  case timerStarted
  case timerStopped
  case tick
}

enum PrimesID: Hashable, Sendable { case request, timer }

func primesReducer(nthPrime: @escaping @Sendable (Int) async -> Int, clock: any Clock<Duration>)
  -> Reducer<Primes, PrimesAction>
{
  Reducer { state, action in
    switch action {
    case .incrementTapped:
      state.count += 1
      return .none
    case .nthPrimeTapped:
      state.isLoading = true
      return .run { [n = state.count] send in await send(.nthPrimeResponse(await nthPrime(n))) }
        .cancellable(id: PrimesID.request, cancelInFlight: true)
    case .nthPrimeResponse(let prime):
      state.isLoading = false
      state.prime = prime
      return .none
    case .timerStarted:
      return .run { send in
        while true {
          try await clock.sleep(for: .seconds(1))
          await send(.tick)
        }
      }
      .cancellable(id: PrimesID.timer)
    case .timerStopped:
      return .cancel(id: PrimesID.timer)
    case .tick:
      state.seconds += 1
      return .none
    }
  }
}

@Suite(.timeLimit(.minutes(1))) struct TestStoreTests {
  @Test func sendAndReceiveReadLikeAScript() async {
    let store = TestStore(
      initialState: Primes(),
      reducer: primesReducer(nthPrime: { _ in 17 }, clock: ImmediateClock())
    )
    await store.send(.incrementTapped) { $0.count = 1 }
    await store.send(.nthPrimeTapped) { $0.isLoading = true }
    await store.receive(.nthPrimeResponse(17)) {
      $0.isLoading = false
      $0.prime = 17
    }
    await store.finish()
    #expect(store.state == Primes(count: 1, prime: 17))
  }

  @MainActor @Test func runsOnTheCallersActor() async {
    let store = TestStore(
      initialState: Primes(),
      reducer: primesReducer(nthPrime: { _ in 17 }, clock: ImmediateClock())
    )
    await store.send(.nthPrimeTapped) { $0.isLoading = true }
    await store.receive(.nthPrimeResponse(17)) {
      $0.isLoading = false
      $0.prime = 17
    }
    await store.finish()
  }

  @Test func aTestClockDrivesTimersInstantly() async {
    let clock = TestClock()
    let store = TestStore(initialState: Primes(), reducer: primesReducer(nthPrime: { $0 }, clock: clock))
    await store.send(.timerStarted)
    for second in 1...3 {
      await clock.waitUntilSleeping()
      await clock.advance(by: .seconds(1))
      await store.receive(.tick) { $0.seconds = second }
    }
    await store.send(.timerStopped)
    await store.finish()
  }

  @Test func receiveMatchesACaseOrAPredicate() async {
    let store = TestStore(
      initialState: Primes(),
      reducer: primesReducer(nthPrime: { _ in 2 }, clock: ImmediateClock())
    )
    let response = ActionPath<PrimesAction, Int>(embed: PrimesAction.nthPrimeResponse) {
      if case .nthPrimeResponse(let prime) = $0 { prime } else { nil }
    }
    await store.send(.nthPrimeTapped) { $0.isLoading = true }
    await store.receive(response) {
      $0.isLoading = false
      $0.prime = 2
    }
    await store.send(.nthPrimeTapped) { $0.isLoading = true }
    await store.receive(where: { if case .nthPrimeResponse = $0 { true } else { false } }) {
      $0.isLoading = false
    }
    await store.finish()
  }

  @Test func skipReceivedActionsKeepsTheirState() async {
    let store = TestStore(
      initialState: Primes(),
      reducer: primesReducer(nthPrime: { _ in 5 }, clock: ImmediateClock())
    )
    let task = await store.send(.nthPrimeTapped) { $0.isLoading = true }
    await task.finish()
    await store.skipReceivedActions()
    #expect(store.state.prime == 5)
    await store.finish()
  }

  @Test func cancelInFlightEffectsEndsWorkTheTestDoesNotDrive() async {
    let store = TestStore(
      initialState: Primes(), reducer: primesReducer(nthPrime: { $0 }, clock: TestClock()))
    await store.send(.timerStarted)
    await store.cancelInFlightEffects()
    await store.finish()
  }

  @Test func nonExhaustiveTestsCheckOnlyWhatTheyAssert() async {
    let store = TestStore(
      initialState: Primes(),
      reducer: primesReducer(nthPrime: { _ in 3 }, clock: ImmediateClock())
    )
    store.exhaustivity = .off
    await store.send(.incrementTapped)
    await store.send(.nthPrimeTapped)
    await store.receive(.nthPrimeResponse(3)) { $0.prime = 3 }
    await store.send(.incrementTapped) { $0.count = 2 }
  }
}

/// Every failure a TestStore reports, each proved to be reported.
@Suite(.timeLimit(.minutes(1))) struct TestStoreFailureTests {
  func makeStore(clock: any Clock<Duration> = ImmediateClock()) -> TestStore<Primes, PrimesAction> {
    TestStore(initialState: Primes(), reducer: primesReducer(nthPrime: { _ in 17 }, clock: clock))
  }

  @Test func aWrongExpectationFailsWithADiff() async {
    let store = makeStore()
    await withKnownIssue {
      await store.send(.incrementTapped) { $0.count = 2 }
    } matching: { issue in
      let text = issue.description
      return text.contains("A state change does not match expectation")
        && text.contains("−   count: 2") && text.contains("+   count: 1")
    }
  }

  @Test func anUnassertedChangeFails() async {
    let store = makeStore()
    await withKnownIssue {
      await store.send(.incrementTapped)
    } matching: { issue in
      issue.description.contains("State was not expected to change")
    }
  }

  @Test func aClosureThatChangesNothingFails() async {
    let store = makeStore()
    await withKnownIssue {
      await store.send(.timerStopped) { $0.count = 0 }
    } matching: { issue in
      issue.description.contains("Expected state to change, but no change occurred")
    }
  }

  @Test func anUnreceivedActionFailsAtFinish() async {
    let store = makeStore()
    await store.send(.nthPrimeTapped) { $0.isLoading = true }
    await withKnownIssue {
      await store.finish()
    } matching: { issue in
      issue.description.contains("Must handle 1 received action(s) before the test ends")
        && issue.description.contains("nthPrimeResponse(17)")
    }
  }

  @Test func anUnreceivedActionFailsTheNextSend() async {
    let store = makeStore()
    let task = await store.send(.nthPrimeTapped) { $0.isLoading = true }
    await task.finish()  // the response is now waiting to be received
    await withKnownIssue {
      await store.send(.incrementTapped) { $0.count = 1 }
    } matching: { issue in
      issue.description.contains("before sending an action")
    }
    await store.skipReceivedActions()
  }

  @Test func receivingTheWrongActionFails() async {
    let store = makeStore()
    await store.send(.nthPrimeTapped) { $0.isLoading = true }
    await withKnownIssue {
      await store.receive(.nthPrimeResponse(2)) {
        $0.isLoading = false
        $0.prime = 17
      }
    } matching: { issue in
      issue.description.contains("Received an unexpected action")
        && issue.description.contains("nthPrimeResponse(2)")
        && issue.description.contains("nthPrimeResponse(17)")
    }
  }

  @Test func receivingNothingFailsAfterTheTimeout() async {
    let store = makeStore()
    await withKnownIssue {
      await store.receive(.tick, timeout: .milliseconds(50))
    } matching: { issue in
      issue.description.contains("Expected to receive") && issue.description.contains("No effect is running")
    }
  }

  @Test func anEffectStillRunningFailsFinish() async {
    let store = makeStore(clock: TestClock())
    await store.send(.timerStarted)
    await withKnownIssue {
      await store.finish(timeout: .milliseconds(50))
    } matching: { issue in
      issue.description.contains("still running")
    }
  }

  @Test func anEffectStillRunningFailsWhenTheStoreIsReleased() async {
    await withKnownIssue {
      let store = makeStore(clock: TestClock())
      await store.send(.timerStarted)
    } matching: { issue in
      issue.description.contains("still running")
    }
  }

  @Test func anUnhandledEffectErrorFails() async {
    let store = TestStore(
      initialState: Counter(),
      reducer: Reducer<Counter, CounterAction> { _, _ in .run { _ in throw Failure(reason: "unhandled") } }
    )
    await withKnownIssue {
      await store.send(.increment)
      await store.finish()
    } matching: { issue in
      issue.description.contains("unhandled")
    }
  }

  @Test func skippingNothingFailsWhenStrict() async {
    let store = makeStore()
    await withKnownIssue {
      await store.skipReceivedActions()
    } matching: { issue in
      issue.description.contains("no received actions to skip")
    }
    await store.skipReceivedActions(strict: false)
  }
}
