import Foundation
import Statecast
import StatecastJSON
import StatecastStorage
import Synchronization
import Testing

@testable import StatecastServer

/// The periodic session save writes only what changed, so that idle tabs cost nothing
/// between saves, and never misses a change (a join, a leave, a per-tab store's state).
@Suite(.timeLimit(.minutes(1))) struct SessionSaveTests {
  let directory = FileManager.default.temporaryDirectory
    .appendingPathComponent("statecast-session-save-\(UUID().uuidString)")

  @Test func aPeriodicSaveWritesOnlySessionsThatChanged() async throws {
    defer { try? FileManager.default.removeItem(at: directory) }
    // Saved times come from the storage's clock: a step of it shows which sessions a
    // save wrote again.
    let clock = SteppingClock()
    var options = SQLiteStorage.Options()
    options.now = { clock.now }
    let storage = try SQLiteStorage(directory: directory, options: options)
    let routes: [Route] = [
      .perSession("tally", Ticker.self, dependencies: Probe(), durability: .durable),
      .shared("room/:id", Ticker.self, dependencies: Probe()),
    ]
    let topics = TopicRegistry(
      routes: routes.flatMap(\.topics), sink: RecordingSink(), maxTopicsPerSession: 8, storage: storage)
    let sessions = SessionRegistry(topics: topics, gracePeriod: .seconds(30), storage: storage)
    let idle = sessions.open(on: ConnectionID(rawValue: 1), viewer: .guest())
    let busy = sessions.open(on: ConnectionID(rawValue: 2), viewer: .guest())
    let joining = sessions.open(on: ConnectionID(rawValue: 3), viewer: .guest())
    for session in [idle, busy] {
      try await topics.join(
        "tally", params: .object(JSONObject()), session: session.id, viewer: session.viewer,
        connection: ConnectionID(rawValue: 1))
    }

    await sessions.saveAll()
    let first = try await savedTimes(of: [idle, busy, joining], in: storage)
    #expect(first.count == 3)
    clock.step()

    try await topics.perform(JSON.object(["increment": .object(JSONObject())]), on: "tally", from: busy.id)
    try await topics.join(
      "room/1", params: .object(JSONObject()), session: joining.id, viewer: joining.viewer,
      connection: ConnectionID(rawValue: 3))
    await sessions.saveAll()
    let second = try await savedTimes(of: [idle, busy, joining], in: storage)
    #expect(second[idle.id] == first[idle.id], "an unchanged session is not written again")
    #expect(second[busy.id]! > first[busy.id]!, "a per-tab store's change is saved")
    #expect(second[joining.id]! > first[joining.id]!, "a join is saved")
    let saved = try await storage.loadSession(busy.id)
    #expect(saved?.topics.first?.state?["count"] == .int(1))
    #expect(try await storage.loadSession(joining.id)?.topics.map(\.topic) == ["room/1"])

    clock.step()
    await sessions.saveAll()
    let third = try await savedTimes(of: [idle, busy, joining], in: storage)
    #expect(third == second, "nothing changed, nothing written")
    await topics.closeAll()
  }

  /// A wall clock that moves only when told, one second at a time.
  private final class SteppingClock: Sendable {
    private let seconds = Mutex(1_800_000_000.0)
    var now: Date { Date(timeIntervalSince1970: seconds.withLock { $0 }) }
    func step() { seconds.withLock { $0 += 1 } }
  }

  private func savedTimes(of sessions: [Session], in storage: SQLiteStorage) async throws -> [String: Date] {
    var times: [String: Date] = [:]
    for session in sessions {
      times[session.id] = try await storage.loadSession(session.id)?.savedAt
    }
    return times
  }
}
