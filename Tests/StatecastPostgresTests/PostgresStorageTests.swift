import Foundation
import Statecast
import StatecastJSON
import StatecastPostgres
import StatecastStorage
import Testing

@Suite(.timeLimit(.minutes(1))) struct PostgresStorageTests {
  /// Entries appended across several snapshots restore to the last state, in a new
  /// process (another cluster instance) too.
  @Test func appendsRestoreAcrossSnapshots() async throws {
    let url = try await ThrowawayPostgres.shared.freshDatabase()
    var options = PostgresCluster.Options()
    options.snapshotInterval = 3
    try await withCluster(url, options: options) { cluster in
      let storage = cluster.storage
      #expect(try await storage.loadRoom("r") == nil)
      let created = try await storage.createRoom("r", state: ["n": 0, "list": []])
      #expect(created.revision == 0)
      #expect(try await storage.createRoom("r", state: ["other": true]).state == ["n": 0, "list": []])
      _ = try await cluster.backplane.acquireLease(room: "r", ttl: .seconds(30))
      var state: JSON = ["n": 0, "list": []]
      for revision in 1...10 {
        let next = try JSON(
          parsing: Data(
            #"{"n":\#(revision),"list":[\#((1...revision).map(String.init).joined(separator: ","))],"text":"ü \"q\""}"#
              .utf8))
        try await storage.append(
          JournalEntry(
            room: "r", revision: Int64(revision), patch: JSONPatch.diff(from: state, to: next), state: next))
        state = next
      }
      #expect(storage.counters.entries == 10)
      let loaded = try #require(try await storage.loadRoom("r"))
      #expect(loaded.revision == 10)
      #expect(loaded.state == state)
    }
    try await withCluster(url) { cluster in
      let loaded = try #require(try await cluster.storage.loadRoom("r"))
      #expect(loaded.revision == 10)
      #expect(loaded.state["n"] == 10)
    }
  }

  /// A store's commits go through `RoomJournal` and come back from a restore.
  @Test func roomJournalRestoresAStore() async throws {
    let url = try await ThrowawayPostgres.shared.freshDatabase()
    try await withCluster(url) { cluster in
      _ = try await cluster.backplane.acquireLease(room: "board", ttl: .seconds(30))
      let journal = try await RoomJournal.open(room: "board", in: cluster.storage, initialState: Board())
      let store = Store(initialState: journal.restoredState, reducer: boardReducer, commit: journal.commit)
      for index in 0..<5 { try await store.send(.added("card \(index)")).committed() }
      let reopened = try await RoomJournal.open(room: "board", in: cluster.storage, initialState: Board())
      #expect(reopened.restoredState.cards == (0..<5).map { "card \($0)" })
      #expect(reopened.revision == 5)
    }
  }

  /// Idempotency keys are written with their change and read back by the next opener
  /// (the next owner of the room).
  @Test func idempotencyKeysComeBackWithTheRoom() async throws {
    let url = try await ThrowawayPostgres.shared.freshDatabase()
    try await withCluster(url) { cluster in
      _ = try await cluster.backplane.acquireLease(room: "board", ttl: .seconds(30))
      let journal = try await RoomJournal.open(room: "board", in: cluster.storage, initialState: Board())
      let store = Store(initialState: journal.restoredState, reducer: boardReducer, commit: journal.commit)
      try await store.send(.added("a"), idempotencyKey: "key-a").committed()
      try await store.send(.added("b")).committed()
      try await store.send(.added("c"), idempotencyKey: "key-c").committed()
      let reopened = try await RoomJournal.open(room: "board", in: cluster.storage, initialState: Board())
      #expect(reopened.restoredKeys == ["key-a", "key-c"])
      // Revision 64 runs the trim of old keys; these are recent, so they stay.
      var state = try JSONValueEncoder().encode(reopened.restoredState)
      for revision in Int64(4)...64 {
        let next: JSON = ["cards": [.string("\(revision)")]]
        try await cluster.storage.append(
          JournalEntry(
            room: "board", revision: revision, patch: JSONPatch.diff(from: state, to: next), state: next))
        state = next
      }
      #expect(try await cluster.storage.loadRoom("board")?.appliedKeys == ["key-a", "key-c"])
    }
  }

  @Test func anAppendThatDoesNotFollowOnIsARevisionConflictAndWritesNothing() async throws {
    let url = try await ThrowawayPostgres.shared.freshDatabase()
    try await withCluster(url) { cluster in
      let storage = cluster.storage
      _ = try await storage.createRoom("r", state: ["n": 0])
      _ = try await cluster.backplane.acquireLease(room: "r", ttl: .seconds(30))
      _ = try await cluster.backplane.acquireLease(room: "missing", ttl: .seconds(30))
      try await storage.append(entry("r", revision: 1))
      await #expect(throws: StorageError.self) { try await storage.append(entry("r", revision: 3)) }
      do {
        try await storage.append(entry("r", revision: 1))
        Issue.record("a stale append succeeded")
      } catch StorageError.revisionConflict(let room, let expected, let found) {
        #expect(room == "r" && expected == 1 && found == 1)
      }
      do {
        try await storage.append(entry("missing", revision: 1))
        Issue.record("an append to a missing room succeeded")
      } catch StorageError.revisionConflict(_, _, let found) {
        #expect(found == nil)
      }
      #expect(try await storage.loadRoom("r")?.revision == 1)
      #expect(try await storage.loadRoom("missing") == nil)
    }
  }

  /// An append needs this node's unexpired lease: without one it fails, and once
  /// another node has taken the expired lease, the former owner's append fails too.
  @Test func appendsAreFencedByTheLease() async throws {
    let url = try await ThrowawayPostgres.shared.freshDatabase()
    try await withCluster(url) { first in
      try await withCluster(url) { second in
        _ = try await first.storage.createRoom("r", state: ["n": 0])
        await #expect(throws: StorageError.self) { try await first.storage.append(entry("r", revision: 1)) }
        #expect(try await first.storage.loadRoom("r")?.revision == 0)

        #expect(try await first.backplane.acquireLease(room: "r", ttl: .seconds(2)) == first.node)
        try await first.storage.append(entry("r", revision: 1))
        #expect(try await second.backplane.acquireLease(room: "r", ttl: .seconds(30)) == first.node)
        #expect(
          try await eventually {
            try await second.backplane.acquireLease(room: "r", ttl: .seconds(30)) == second.node
          })

        do {
          try await first.storage.append(entry("r", revision: 2))
          Issue.record("the former owner's append succeeded")
        } catch StorageError.revisionConflict(let room, let expected, _) {
          #expect(room == "r" && expected == 2)
        }
        #expect(try await second.storage.loadRoom("r")?.revision == 1)
        try await second.storage.append(entry("r", revision: 2))
        #expect(try await first.storage.loadRoom("r")?.state == ["n": 2])
      }
    }
  }

  /// Many rooms appending at once share transactions, and each room still restores.
  @Test func concurrentAppendsShareTransactions() async throws {
    let url = try await ThrowawayPostgres.shared.freshDatabase()
    try await withCluster(url) { cluster in
      let storage = cluster.storage
      let rooms = (0..<50).map { "room/\($0)" }
      for room in rooms {
        _ = try await storage.createRoom(room, state: ["n": 0])
        _ = try await cluster.backplane.acquireLease(room: room, ttl: .seconds(60))
      }
      try await withThrowingDiscardingTaskGroup { group in
        for room in rooms {
          group.addTask {
            for revision in 1...10 { try await storage.append(entry(room, revision: Int64(revision))) }
          }
        }
      }
      let counters = storage.counters
      #expect(counters.entries == 500)
      #expect(counters.commits < counters.entries / 4)
      for room in rooms { #expect(try await storage.loadRoom(room)?.state == ["n": 10]) }
    }
  }

  /// The replaced state is archived with its journal, and the revisions continue.
  @Test func replaceRoomArchivesTheOldStateAndContinuesTheRevisions() async throws {
    let url = try await ThrowawayPostgres.shared.freshDatabase()
    try await withCluster(url) { cluster in
      let storage = cluster.storage
      _ = try await storage.createRoom("r", state: ["n": 0])
      _ = try await cluster.backplane.acquireLease(room: "r", ttl: .seconds(30))
      try await storage.append(entry("r", revision: 1))
      let replaced = try await storage.replaceRoom("r", state: ["fresh": true])
      #expect(replaced.revision == 2)
      #expect(try await storage.loadRoom("r")?.state == ["fresh": true])
      try await storage.append(
        JournalEntry(
          room: "r", revision: 3, patch: JSONPatch.diff(from: ["fresh": true], to: ["fresh": false]),
          state: ["fresh": false]))
      #expect(try await storage.loadRoom("r")?.revision == 3)
      #expect(try await storage.replaceRoom("new", state: ["n": 1]).revision == 0)
    }
    let archived = try await ThrowawayPostgres.count(
      """
      SELECT count(*) FROM statecast_archived_snapshots WHERE room = 'r' AND revision = 1
        AND (snapshot::json ->> 'snapshotRevision')::int = 0 AND snapshot::json -> 'snapshot' ->> 'n' = '0'
        AND json_array_length(snapshot::json -> 'journal') = 1
      """,
      on: url)
    #expect(archived == 1)
  }

  /// A database written before rooms had a small key (its journal repeating the room's
  /// name in every row) is moved over when a node starts, and its rooms load as they were.
  @Test func aJournalKeyedByRoomNameIsMovedToRoomKeys() async throws {
    let url = try await ThrowawayPostgres.shared.freshDatabase()
    for statement in [
      """
      CREATE TABLE statecast_rooms (id text PRIMARY KEY, revision bigint NOT NULL,
        snapshot_revision bigint NOT NULL, snapshot text NOT NULL, last_used timestamptz NOT NULL DEFAULT now())
      """,
      """
      CREATE TABLE statecast_journal (room text NOT NULL REFERENCES statecast_rooms (id) ON DELETE CASCADE,
        revision bigint NOT NULL, patch text NOT NULL, PRIMARY KEY (room, revision))
      """,
      #"INSERT INTO statecast_rooms VALUES ('team', 2, 0, '{"n":0}', now()), ('other', 0, 0, '{"n":7}', now())"#,
      #"INSERT INTO statecast_journal VALUES ('team', 1, '[{"op":"replace","path":"/n","value":1}]')"#,
      #"INSERT INTO statecast_journal VALUES ('team', 2, '[{"op":"replace","path":"/n","value":2}]')"#,
    ] {
      try await ThrowawayPostgres.execute(statement, on: url)
    }
    try await withCluster(url) { cluster in
      let team = try #require(try await cluster.storage.loadRoom("team"))
      #expect(team.revision == 2 && team.state == ["n": 2])
      #expect(try await cluster.storage.loadRoom("other")?.state == ["n": 7])
      _ = try await cluster.backplane.acquireLease(room: "team", ttl: .seconds(30))
      try await cluster.storage.append(entry("team", revision: 3))
      #expect(try await cluster.storage.loadRoom("team")?.state == ["n": 3])
    }
    #expect(
      try await ThrowawayPostgres.count(
        "SELECT count(*) FROM pg_tables WHERE tablename = 'statecast_journal'", on: url)
        == 0)
    #expect(try await ThrowawayPostgres.count("SELECT count(*) FROM statecast_room_journal", on: url) == 3)
  }

  @Test func roomsUnusedForLongerThanTheirAgeAreDeleted() async throws {
    let url = try await ThrowawayPostgres.shared.freshDatabase()
    try await withCluster(url) { cluster in
      let storage = cluster.storage
      _ = try await storage.createRoom("old", state: ["n": 0])
      _ = try await storage.createRoom("new", state: ["n": 0])
      try await ThrowawayPostgres.execute(
        "UPDATE statecast_rooms SET last_used = now() - interval '2 hours' WHERE id = 'old'", on: url)
      #expect(try await storage.deleteRooms(unusedFor: .seconds(3_600)) == 1)
      #expect(try await storage.loadRoom("old") == nil)
      #expect(try await storage.loadRoom("new") != nil)
    }
  }

  private func entry(_ room: String, revision: Int64) -> JournalEntry {
    let before: JSON = ["n": .int(revision - 1)]
    let after: JSON = ["n": .int(revision)]
    return JournalEntry(
      room: room, revision: revision, patch: JSONPatch.diff(from: before, to: after), state: after)
  }
}
