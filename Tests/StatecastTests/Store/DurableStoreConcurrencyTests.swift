import Statecast
import Testing

@Suite(.timeLimit(.minutes(1))) struct DurableStoreConcurrencyTests {
  /// 50 senders, 1,000 actions, a commit function failing about one time in four
  /// (seeded): every commit starts from the last successful one, observers see the
  /// committed states in order, and exactly the acknowledged actions are kept.
  @Test func concurrentSendsCommitInOrderAndFailuresRollBackToTheLastCommittedState() async {
    struct Attempt: Sendable { var previous: Int, state: Int, stored: Bool }
    let attempts = Recorder<Attempt>()
    let random = SeededRandom(seed: 7)
    let store = Store(
      initialState: Counter(), reducer: counterReducer,
      commit: { commit in
        await Task.yield()
        let stored = random.next() % 4 != 0
        attempts.record(Attempt(previous: commit.previous.count, state: commit.state.count, stored: stored))
        if !stored { throw Failure() }
      })
    let observed = Recorder<Int>()
    let observation = await store.observe { observed.record($0.count) }
    let acknowledged = Recorder<Bool>()
    await withDiscardingTaskGroup { group in
      for _ in 0..<50 {
        group.addTask {
          for _ in 0..<20 {
            let task = await store.send(.add(1))
            do {
              try await task.committed()
              acknowledged.record(true)
            } catch {
              acknowledged.record(false)
            }
          }
        }
      }
    }
    var committed = 0
    for attempt in attempts.values {
      #expect(attempt.previous == committed)
      if attempt.stored { committed = attempt.state }
    }
    #expect(committed > 0)
    #expect(attempts.values.contains { !$0.stored })
    #expect(attempts.values.count < 1_000)
    #expect(await store.state.count == committed)
    #expect(acknowledged.values.filter { $0 }.count == committed)
    #expect(observed.values == Array(1...committed))
    observation.cancel()
  }
}
