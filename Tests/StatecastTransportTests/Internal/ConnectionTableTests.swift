import Testing

@testable import StatecastTransport

@Suite struct ConnectionTableTests {
  let frame = OutboundFrame(text: [UInt8](repeating: 0x61, count: 100))

  @Test func framesAreQueuedUntilTheHighWatermarkThenCongested() {
    let table = ConnectionTable(highWatermark: 250, hardLimit: 1_000)
    let id = table.open()
    #expect(table.enqueue(frame, to: id) == .queued)
    #expect(table.enqueue(frame, to: id) == .queued)
    #expect(table.enqueue(frame, to: id) == .congested)
    // Still congested while the backlog drains, until it is empty.
    guard case .frame(_, let drained, let more) = table.nextWrite(for: id) else {
      Issue.record("expected a frame")
      return
    }
    #expect(!drained && more)
    #expect(table.enqueue(frame, to: id) == .congested)
  }

  @Test func theLastWriteOfACongestedBacklogReportsDrained() {
    let table = ConnectionTable(highWatermark: 150, hardLimit: 1_000)
    let id = table.open()
    _ = table.enqueue(frame, to: id)
    #expect(table.enqueue(frame, to: id) == .congested)
    var drainedFlags: [Bool] = []
    while case .frame(_, let drained, _) = table.nextWrite(for: id) { drainedFlags.append(drained) }
    #expect(drainedFlags == [false, true])
    #expect(table.enqueue(frame, to: id) == .queued)
  }

  @Test func exceedingTheHardLimitKillsTheConnectionAndDropsTheBacklog() {
    let table = ConnectionTable(highWatermark: 150, hardLimit: 300)
    let id = table.open()
    #expect(table.enqueue(frame, to: id) == .queued)
    #expect(table.enqueue(frame, to: id) == .congested)
    #expect(table.enqueue(frame, to: id) == .congested)
    #expect(table.enqueue(frame, to: id) == .closed)
    #expect(table.enqueue(frame, to: id) == .closed)
    var wakes: [ConnectionTable.Wake] = []
    table.takeWakes(into: &wakes)
    #expect(wakes.map(\.id) == [id])
    #expect(wakes.first?.kill == ConnectionTable.tooSlow)
    guard case .close(let close) = table.nextWrite(for: id) else {
      Issue.record("expected the close")
      return
    }
    #expect(close.code == 1008)
  }

  @Test func aSingleFrameLargerThanTheHardLimitIsSentWhenTheQueueIsEmpty() {
    let table = ConnectionTable(highWatermark: 10, hardLimit: 50)
    let id = table.open()
    #expect(table.enqueue(frame, to: id) == .congested)
  }

  @Test func aCloseWaitsForTheQueuedFrames() {
    let table = ConnectionTable(highWatermark: 1_000, hardLimit: 10_000)
    let id = table.open()
    _ = table.enqueue(frame, to: id)
    #expect(table.requestClose(id, code: 1000, reason: "bye"))
    #expect(!table.requestClose(id, code: 1000, reason: "again"))
    #expect(table.enqueue(frame, to: id) == .closed)
    guard case .frame(_, _, let more) = table.nextWrite(for: id) else {
      Issue.record("expected the queued frame first")
      return
    }
    #expect(more)
    guard case .close(let close) = table.nextWrite(for: id) else {
      Issue.record("expected the close")
      return
    }
    #expect(close == .init(code: 1000, reason: "bye"))
  }

  @Test func onlyAFrameIntoAnEmptyQueueWakesTheConnection() {
    let table = ConnectionTable(highWatermark: 1_000, hardLimit: 10_000)
    let first = table.open()
    let second = table.open()
    _ = table.enqueue(frame, to: [first, second])
    _ = table.enqueue(frame, to: first)
    var wakes: [ConnectionTable.Wake] = []
    table.takeWakes(into: &wakes)
    #expect(wakes.map(\.id) == [first, second])
    _ = table.enqueue(frame, to: first)
    table.takeWakes(into: &wakes)
    #expect(wakes.isEmpty)
  }

  @Test func aReleasedSlotIsReusedUnderANewID() {
    let table = ConnectionTable(highWatermark: 1_000, hardLimit: 10_000)
    let old = table.open()
    table.release(old)
    let new = table.open()
    #expect(new.slot == old.slot)
    #expect(new != old)
    #expect(table.enqueue(frame, to: old) == .closed)
    #expect(table.enqueue(frame, to: new) == .queued)
    #expect(table.connectionCount == 1)
  }

  @Test func aBroadcastReportsCongestedAndClosedConnections() {
    let table = ConnectionTable(highWatermark: 150, hardLimit: 10_000)
    let idle = table.open()
    let busy = table.open()
    let gone = table.open()
    table.release(gone)
    _ = table.enqueue(frame, to: busy)
    let outcome = table.enqueue(frame, to: [idle, busy, gone])
    #expect(outcome.congested == [busy])
    #expect(outcome.closed == [gone])
  }
}
