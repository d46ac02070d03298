import Foundation
import Statecast
import StatecastExamples
import Testing

@Suite("Telemetry")
struct TelemetryTests {
  let ada = Viewer(id: "ada", name: "Ada")

  func makeStore() -> Store<Telemetry.State, Telemetry.Action> {
    Store(initialState: Telemetry.State(), reducer: Telemetry.reducer())
  }

  @Test func readingsFillTheChartAndTheFeedKeepsOnlyTheNewest() async {
    let store = makeStore()
    for _ in 0..<70 { await store.send(.ticked).finish() }
    let view = Telemetry.viewState(await store.state)
    #expect(view.samples.count == Telemetry.sampleCount && view.latest == Telemetry.reading(at: 70))
    #expect(view.readings.rows.map(\.id) == [66, 67, 68, 69, 70])
    await store.send(.client(ada, .pauseTapped)).finish()
    await store.send(.ticked).finish()
    #expect(await store.state.tick == 70)
  }

  @Test func marksAreKeptAndRemovedById() async {
    let store = makeStore()
    await store.send(.client(ada, .markTapped)).finish()
    #expect(await store.state.marks.isEmpty, "nothing to mark before the first reading")
    await store.send(.ticked).finish()
    await store.send(.client(ada, .markTapped)).finish()
    await store.send(.client(ada, .markTapped)).finish()
    #expect(await store.state.marks.map(\.id) == [1, 2])
    await store.send(.client(ada, .removeMark(id: 1))).finish()
    #expect(await store.state.marks.map(\.id) == [2])
  }

  @Test func aPingIsAnEventForThePingerOrForEveryone() async {
    let store = makeStore()
    let events = Recorder<String>()
    let stop = store.events.listen { event in
      events.record(
        "\(event.name) to \(event.viewer?.id ?? "everyone"): \((event.payload as? Telemetry.Toast)?.text ?? "")"
      )
    }
    defer { stop() }
    await store.send(.client(ada, .pingTapped(everyone: false))).finish()
    await store.send(.client(ada, .pingTapped(everyone: true))).finish()
    #expect(
      events.values == [
        "toast to ada: Pong at reading 0", "toast to everyone: Ada pinged everyone at reading 0",
      ])
    #expect(await store.state == Telemetry.State(), "an event is not state")
  }
}
