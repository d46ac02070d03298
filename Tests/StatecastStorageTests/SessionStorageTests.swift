import Foundation
import StatecastJSON
import StatecastStorage
import Testing

@Suite(.timeLimit(.minutes(1))) struct SessionStorageTests {
  @Test func sessionsSurviveAReopenAndASaveReplacesTheEarlierOne() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let clock = ManualClock()
    var options = SQLiteStorage.Options()
    options.now = { clock.now }
    let storage = try SQLiteStorage(directory: directory.url, options: options)
    let tab = StoredSession(
      id: "s1",
      topics: [
        StoredTopic(topic: "todos/team-42"),
        StoredTopic(
          topic: "counter", params: ["start": 1], state: ["count": 3, "label": "ü \"x\""], revision: 12),
      ]
    )
    try await storage.saveSessions([tab, StoredSession(id: "s2", topics: [])])

    let reopened = try SQLiteStorage(directory: directory.url, options: options)
    let loaded = try #require(try await reopened.loadSession("s1"))
    #expect(loaded.topics == tab.topics)
    #expect(loaded.savedAt == clock.now)

    try await reopened.saveSessions([
      StoredSession(id: "s1", topics: [StoredTopic(topic: "counter", revision: 13)])
    ])
    #expect(try await reopened.loadSession("s1")?.topics == [StoredTopic(topic: "counter", revision: 13)])
    try await reopened.deleteSession("s1")
    #expect(try await reopened.loadSession("s1") == nil)
    #expect(try await reopened.loadSession("s2") != nil)
    #expect(try await reopened.loadSession("unknown") == nil)
  }

  @Test func sessionsAndRoomsUnusedForLongerThanTheirAgeAreDeleted() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let clock = ManualClock()
    var options = SQLiteStorage.Options()
    options.now = { clock.now }
    let storage = try SQLiteStorage(directory: directory.url, options: options)
    _ = try await storage.createRoom("old", state: ["n": 0])
    try await storage.saveSessions([StoredSession(id: "old", topics: [])])
    clock.advance(by: 3_600)
    _ = try await storage.createRoom("new", state: ["n": 0])
    try await storage.saveSessions([StoredSession(id: "new", topics: [])])
    clock.advance(by: 1_800)
    // A change counts as use: "old" was created first but changed last.
    try await storage.append(
      JournalEntry(
        room: "old", revision: 1, patch: JSONPatch.diff(from: ["n": 0], to: ["n": 1]), state: ["n": 1])
    )
    clock.advance(by: 60)

    #expect(try await storage.deleteRooms(unusedFor: .seconds(1_000)) == 1)
    #expect(try await storage.loadRoom("new") == nil)
    #expect(try await storage.loadRoom("old")?.state == ["n": 1])
    #expect(try await storage.deleteSessions(unusedFor: .seconds(1_000)) == 2)
    #expect(try await storage.loadSession("new") == nil)
  }
}
