import Foundation
import StatecastJSON
import StatecastPostgres
import StatecastStorage
import Testing

@Suite(.timeLimit(.minutes(1))) struct PostgresSessionTests {
  @Test func sessionsAreSavedLoadedReplacedAndDeleted() async throws {
    let url = try await ThrowawayPostgres.shared.freshDatabase()
    let tab = StoredSession(
      id: "s1",
      topics: [
        StoredTopic(topic: "todos/team-42"),
        StoredTopic(
          topic: "counter", params: ["start": 1], state: ["count": 3, "label": "ü \"x\""], revision: 12),
      ]
    )
    try await withCluster(url) { cluster in
      try await cluster.storage.saveSessions([tab, StoredSession(id: "s2", topics: [])])
    }
    try await withCluster(url) { cluster in
      let storage = cluster.storage
      let loaded = try #require(try await storage.loadSession("s1"))
      #expect(loaded.topics == tab.topics)
      #expect(abs(loaded.savedAt.timeIntervalSinceNow) < 60)
      try await storage.saveSessions([
        StoredSession(id: "s1", topics: [StoredTopic(topic: "counter", revision: 13)])
      ])
      #expect(try await storage.loadSession("s1")?.topics == [StoredTopic(topic: "counter", revision: 13)])
      // The session was saved by the other node last: it is not this one's to delete.
      try await storage.deleteSession("s2")
      #expect(try await storage.loadSession("s2") != nil)
      try await storage.deleteSession("s1")
      #expect(try await storage.loadSession("s1") == nil)
      #expect(try await storage.loadSession("unknown") == nil)
    }
  }

  /// A node deletes a session only while it is the last to have saved it: once
  /// another node resumed (and saved) it, the first node's delete leaves it alone.
  @Test func onlyTheNodeThatSavedASessionLastDeletesIt() async throws {
    let url = try await ThrowawayPostgres.shared.freshDatabase()
    try await withCluster(url) { first in
      try await withCluster(url) { second in
        try await first.storage.saveSessions([StoredSession(id: "tab", topics: [StoredTopic(topic: "a")])])
        try await second.storage.saveSessions([StoredSession(id: "tab", topics: [StoredTopic(topic: "b")])])
        try await first.storage.deleteSession("tab")
        #expect(try await first.storage.loadSession("tab")?.topics == [StoredTopic(topic: "b")])
        try await second.storage.deleteSession("tab")
        #expect(try await first.storage.loadSession("tab") == nil)
      }
    }
  }

  @Test func sessionsUnusedForLongerThanTheirAgeAreDeleted() async throws {
    let url = try await ThrowawayPostgres.shared.freshDatabase()
    try await withCluster(url) { cluster in
      try await cluster.storage.saveSessions([
        StoredSession(id: "old", topics: []), StoredSession(id: "new", topics: []),
      ])
      try await ThrowawayPostgres.execute(
        "UPDATE statecast_sessions SET saved_at = now() - interval '2 hours' WHERE id = 'old'", on: url)
      #expect(try await cluster.storage.deleteSessions(unusedFor: .seconds(3_600)) == 1)
      #expect(try await cluster.storage.loadSession("old") == nil)
      #expect(try await cluster.storage.loadSession("new") != nil)
    }
  }
}
