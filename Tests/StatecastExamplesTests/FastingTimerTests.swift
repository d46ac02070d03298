import Foundation
import Statecast
import StatecastExamples
import StatecastTesting
import Testing

@Suite("FastingTimer")
struct FastingTimerTests {
  let clock = CountingClock()
  let journal = FastJournal()

  /// The live share service (one second of the test clock, then the journal).
  var dependencies: FastingTimer.Dependencies {
    .live(clock: clock, shareDelay: .seconds(1), journal: journal)
  }

  func makeStore(_ state: FastingTimer.State = FastingTimer.State())
    -> TestStore<FastingTimer.State, FastingTimer.Action>
  {
    TestStore(
      initialState: state,
      reducer: FastingTimer.reducer,
      middlewares: FastingTimer.middlewares(dependencies: dependencies)
    )
  }

  @Test func theRunningFastTicksEverySecondUntilFinished() async {
    let store = makeStore()
    await store.send(.client(.start)) {
      $0.phase = .fasting(elapsedSeconds: 0)
      $0.fastNumber = 1
      $0.request = .tick(fast: 1)
    }
    for second in 1...3 {
      await clock.advance(by: .seconds(1), afterSleeps: second)
      await store.receive(.timerTicked(fast: 1)) { $0.phase = .fasting(elapsedSeconds: second) }
    }
    await clock.waitForSleeps(4)
    await store.send(.client(.finish)) {
      $0.phase = .finished(totalSeconds: 3)
      $0.request = nil
    }
    // The tick already waiting arrives and changes nothing; no further tick is asked for.
    await clock.advance(by: .seconds(1))
    await store.receive(.timerTicked(fast: 1))
    await store.finish()
    #expect(clock.sleepsStarted == 4)
  }

  @Test func aSecondStartDoesNotStartASecondTimer() async {
    let store = makeStore()
    await store.send(.client(.start)) {
      $0.phase = .fasting(elapsedSeconds: 0)
      $0.fastNumber = 1
      $0.request = .tick(fast: 1)
    }
    await store.send(.client(.start)) { $0.request = nil }
    await clock.advance(by: .seconds(1), afterSleeps: 1)
    await store.receive(.timerTicked(fast: 1)) {
      $0.phase = .fasting(elapsedSeconds: 1)
      $0.request = .tick(fast: 1)
    }
    await store.send(.client(.finish)) {
      $0.phase = .finished(totalSeconds: 1)
      $0.request = nil
    }
    await clock.advance(by: .seconds(1), afterSleeps: 2)
    await store.receive(.timerTicked(fast: 1))
    await store.finish()
    #expect(clock.sleepsStarted == 2)
  }

  @Test func aTickOfAnEarlierFastIsIgnored() async {
    let store = makeStore()
    await store.send(.client(.start)) {
      $0.phase = .fasting(elapsedSeconds: 0)
      $0.fastNumber = 1
      $0.request = .tick(fast: 1)
    }
    await clock.advance(by: .milliseconds(500), afterSleeps: 1)
    await store.send(.client(.finish)) {
      $0.phase = .finished(totalSeconds: 0)
      $0.request = nil
    }
    await store.send(.client(.reset)) { $0.phase = .notStarted }
    await store.send(.client(.start)) {
      $0.phase = .fasting(elapsedSeconds: 0)
      $0.fastNumber = 2
      $0.request = .tick(fast: 2)
    }
    await clock.advance(by: .milliseconds(500), afterSleeps: 2)
    await store.receive(.timerTicked(fast: 1)) { $0.request = nil }
    await clock.advance(by: .milliseconds(500))
    await store.receive(.timerTicked(fast: 2)) {
      $0.phase = .fasting(elapsedSeconds: 1)
      $0.request = .tick(fast: 2)
    }
    await store.send(.client(.reset)) {
      $0.phase = .notStarted
      $0.request = nil
    }
    await clock.advance(by: .seconds(1), afterSleeps: 3)
    await store.receive(.timerTicked(fast: 2))
    await store.finish()
  }

  @Test func sharingAFinishedFast() async {
    let store = makeStore(FastingTimer.State(phase: .finished(totalSeconds: 3725), fastNumber: 1))
    let summary = FastSummary(fastNumber: 1, seconds: 3725)
    await store.send(.client(.share)) {
      $0.sharingStatus = .sharing
      $0.request = .share(summary)
    }
    // Sharing again while a share is in flight asks for nothing more.
    await store.send(.client(.share)) { $0.request = nil }
    await clock.advance(by: .seconds(1), afterSleeps: 1)
    await store.receive(.shareSucceeded(fast: 1)) { $0.sharingStatus = .shared }
    await store.send(.client(.share))
    await store.finish()
    #expect(await journal.entries == [summary])
    #expect(summary.text == "You fasted for 1:02:05.")
  }

  @Test func sharingAnEmptyFastFailsAndCanBeRetried() async {
    let store = makeStore()
    await store.send(.client(.start)) {
      $0.phase = .fasting(elapsedSeconds: 0)
      $0.fastNumber = 1
      $0.request = .tick(fast: 1)
    }
    await store.send(.client(.finish)) {
      $0.phase = .finished(totalSeconds: 0)
      $0.request = nil
    }
    await clock.advance(by: .seconds(1), afterSleeps: 1)
    await store.receive(.timerTicked(fast: 1))
    let message = FastSharingError.emptyFast.description
    await store.send(.client(.share)) {
      $0.sharingStatus = .sharing
      $0.request = .share(FastSummary(fastNumber: 1, seconds: 0))
    }
    await clock.advance(by: .seconds(1), afterSleeps: 2)
    await store.receive(.shareFailed(fast: 1, message: message)) {
      $0.sharingStatus = .failed(message: message)
      $0.request = nil
    }
    await store.send(.client(.share)) {
      $0.sharingStatus = .sharing
      $0.request = .share(FastSummary(fastNumber: 1, seconds: 0))
    }
    await clock.advance(by: .seconds(1), afterSleeps: 3)
    await store.receive(.shareFailed(fast: 1, message: message)) {
      $0.sharingStatus = .failed(message: message)
      $0.request = nil
    }
    await store.finish()
    #expect(await journal.entries.isEmpty)
  }

  @Test func resettingWhileSharingIgnoresTheLateResult() async {
    let store = makeStore(FastingTimer.State(phase: .finished(totalSeconds: 60), fastNumber: 4))
    await store.send(.client(.share)) {
      $0.sharingStatus = .sharing
      $0.request = .share(FastSummary(fastNumber: 4, seconds: 60))
    }
    await store.send(.client(.reset)) {
      $0.phase = .notStarted
      $0.sharingStatus = .idle
      $0.request = nil
    }
    await clock.advance(by: .seconds(1), afterSleeps: 1)
    await store.receive(.shareSucceeded(fast: 4))
    await store.finish()
  }

  @Test func actionsThatDoNotApplyChangeNothing() async {
    let store = makeStore()
    await store.send(.client(.finish))
    await store.send(.client(.share))
    await store.send(.client(.reset))
    await store.send(.timerTicked(fast: 0))
    await store.send(.shareSucceeded(fast: 0))
    await store.send(.shareFailed(fast: 0, message: "late"))
    await store.finish()
  }

  @Test func viewState() throws {
    var view = FastingTimer.viewState(FastingTimer.State())
    #expect(view.phase == "notStarted" && view.elapsed == "0:00:00")
    #expect(view.canStart && !view.canFinish && !view.canReset && !view.canShare)
    #expect(view.summary == nil && view.sharingStatus == "idle")

    view = FastingTimer.viewState(FastingTimer.State(phase: .fasting(elapsedSeconds: 3725), fastNumber: 1))
    #expect(view.phase == "fasting" && view.elapsedSeconds == 3725 && view.elapsed == "1:02:05")
    #expect(!view.canStart && view.canFinish && view.canReset && !view.canShare)

    view = FastingTimer.viewState(
      FastingTimer.State(
        phase: .finished(totalSeconds: 57_600), fastNumber: 1, sharingStatus: .failed(message: "no")))
    #expect(view.phase == "finished" && view.elapsed == "16:00:00")
    #expect(view.canStart && !view.canFinish && view.canReset && view.canShare)
    #expect(view.sharingStatus == "failed" && view.sharingMessage == "no")
    #expect(view.summary == "You fasted for 16:00:00.")

    view = FastingTimer.viewState(
      FastingTimer.State(phase: .finished(totalSeconds: 5), sharingStatus: .sharing))
    #expect(!view.canShare && view.sharingStatus == "sharing")
    view = FastingTimer.viewState(
      FastingTimer.State(phase: .finished(totalSeconds: 5), sharingStatus: .shared))
    #expect(!view.canShare && view.sharingStatus == "shared" && view.sharingMessage == nil)

    let json = try JSONSerialization.jsonObject(with: JSONEncoder().encode(view)) as? [String: Any]
    #expect(json?["phase"] as? String == "finished")
    #expect(json?["sharingMessage"] == nil)
  }

  @Test func clientActionsDecodeFromTheWireForm() throws {
    for (json, action) in [
      (#"{"start":{}}"#, FastingTimer.ClientAction.start), (#"{"finish":{}}"#, .finish),
      (#"{"reset":{}}"#, .reset), (#"{"share":{}}"#, .share),
    ] {
      #expect(try JSONDecoder().decode(FastingTimer.ClientAction.self, from: Data(json.utf8)) == action)
    }
  }

  @Test func theJournalRecordsFastsAndRefusesEmptyOnes() async throws {
    try await journal.record(FastSummary(fastNumber: 1, seconds: 10))
    try await journal.record(FastSummary(fastNumber: 2, seconds: 20))
    #expect(await journal.entries.map(\.fastNumber) == [1, 2])
    await #expect(throws: FastSharingError.emptyFast) {
      try await journal.record(FastSummary(fastNumber: 3, seconds: 0))
    }
  }

  @Test func theStoreTicksOnItsClock() async {
    let store = FastingTimer.makeStore(dependencies: dependencies, join: Join())
    await store.send(.client(.start))
    await clock.advance(by: .seconds(1), afterSleeps: 1)
    _ = await firstState(of: store) { $0.phase == .fasting(elapsedSeconds: 1) }
    await store.send(.client(.finish))
    #expect(await store.state.phase == .finished(totalSeconds: 1))
    await store.close()
  }
}
