import Testing

@testable import StatecastServer

/// The ring of recent patch frames a resume replays.
@Suite(.timeLimit(.minutes(1))) struct PatchHistoryTests {
  func frame(_ rev: Int) -> OutboundFrame { OutboundFrame(text: "patch \(rev)") }
  func texts(_ frames: [OutboundFrame]?) -> [String]? {
    frames?.map { frame in frame.withPayload { String(decoding: $0, as: UTF8.self) } }
  }

  @Test func framesAfterARevisionAreTheOnesMissedOldestFirst() {
    var history = PatchHistory(capacity: 4)
    for rev in 1...3 { history.append(frame(rev), rev: rev) }
    #expect(texts(history.frames(after: 1)) == ["patch 2", "patch 3"])
    #expect(texts(history.frames(after: 3)) == [])
    #expect(texts(history.frames(after: 0)) == ["patch 1", "patch 2", "patch 3"])
  }

  @Test func aFullRingForgetsTheOldestAndFallsBackToNil() {
    var history = PatchHistory(capacity: 3)
    for rev in 1...5 { history.append(frame(rev), rev: rev) }
    #expect(texts(history.frames(after: 2)) == ["patch 3", "patch 4", "patch 5"])
    #expect(history.frames(after: 1) == nil)
  }

  @Test func aRevisionFromTheFutureIsNotInTheHistory() {
    var history = PatchHistory(capacity: 3)
    history.append(frame(1), rev: 1)
    #expect(history.frames(after: 2) == nil)
  }

  @Test func aZeroCapacityKeepsNothing() {
    var history = PatchHistory(capacity: 0)
    history.append(frame(1), rev: 1)
    #expect(history.frames(after: 0) == nil)
  }
}
