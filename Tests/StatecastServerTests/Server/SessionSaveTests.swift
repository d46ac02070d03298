import Foundation
import Statecast
import StatecastJSON
import StatecastStorage
import Testing

@testable import StatecastServer

/// The periodic session save writes only what changed, so that idle tabs cost nothing
/// between saves, and never misses a change (a join, a leave, a per-tab store's state).
@Suite(.timeLimit(.minutes(1))) struct SessionSaveTests {
  let directory = FileManager.default.temporaryDirectory
    .appendingPathComponent("statecast-session-save-\(UUID().uuidString)")

  @Test func aPeriodicSaveWritesOnlySessionsThatChanged() async throws {
    defer { try? FileManager.default.removeItem(at: directory) }
    let storage = try SQLiteStorage(directory: directory)
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
    // Saved times are wall-clock seconds: let the clock move so that a rewrite shows.
    try await Task.sleep(for: .milliseconds(20))

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

    try await Task.sleep(for: .milliseconds(20))
    await sessions.saveAll()
    let third = try await savedTimes(of: [idle, busy, joining], in: storage)
    #expect(third == second, "nothing changed, nothing written")
    await topics.closeAll()
  }

  private func savedTimes(of sessions: [Session], in storage: SQLiteStorage) async throws -> [String: Date] {
    var times: [String: Date] = [:]
    for session in sessions {
      times[session.id] = try await storage.loadSession(session.id)?.savedAt
    }
    return times
  }
}
