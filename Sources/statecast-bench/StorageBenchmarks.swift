import Foundation
import Statecast
import StatecastJSON
import StatecastStorage

/// Section "storage": how fast durable changes reach the disk.
///
/// Every append is one journal entry written durably (SQLite, WAL, `synchronous =
/// FULL`, so each transaction waits for an fsync). With one writer each entry pays its
/// own fsync; with 100 writers (one room each, appending at once) the group-commit
/// writer puts everything that arrived during a transaction into the next one.
/// The last case goes end to end: durable stores, each send awaited until committed.
func runStorageBenchmarks() async throws {
  var rows: [BenchRow] = []
  rows.append(
    try await measureAppends(
      name: "append, 1 writer", writers: 1, appendsPerWriter: benchSize(400, minimum: 10)))
  rows.append(
    try await measureAppends(
      name: "append, 100 writers", writers: benchSize(100, minimum: 4),
      appendsPerWriter: benchSize(40, minimum: 4)))
  rows.append(
    try await measureDurableStores(
      name: "durable store send, 100 rooms", rooms: benchSize(100, minimum: 4),
      actionsPerRoom: benchSize(40, minimum: 4)))
  printTable("storage: durable appends (SQLite, WAL, synchronous = FULL)", rows)
}

private struct BenchRoom: Codable, Sendable {
  var count = 0
  var log: [String] = []
}

/// `writers` tasks, each appending to its own room one entry at a time.
private func measureAppends(name: String, writers: Int, appendsPerWriter: Int) async throws -> BenchRow {
  try await withBenchStorage { storage in
    for writer in 0..<writers { _ = try await storage.createRoom("room/\(writer)", state: ["count": 0]) }
    let before = storage.counters
    let start = nowNanoseconds()
    let latencies = try await withThrowingTaskGroup(of: [Double].self) { group in
      for writer in 0..<writers {
        group.addTask {
          var latencies: [Double] = []
          for revision in 1...appendsPerWriter {
            let state: JSON = ["count": .int(Int64(revision))]
            let entry = JournalEntry(
              room: "room/\(writer)", revision: Int64(revision),
              patch: JSONPatch.diff(from: ["count": .int(Int64(revision - 1))], to: state), state: state
            )
            let sent = nowNanoseconds()
            try await storage.append(entry)
            latencies.append(Double(nowNanoseconds() - sent))
          }
          return latencies
        }
      }
      return try await group.reduce(into: []) { $0 += $1 }
    }
    return row(
      name: name, writers: writers, elapsed: nowNanoseconds() - start, latencies: latencies, storage: storage,
      before: before)
  }
}

/// `rooms` durable stores, each sent actions one at a time, each awaited until committed.
private func measureDurableStores(name: String, rooms: Int, actionsPerRoom: Int) async throws -> BenchRow {
  try await withBenchStorage { storage in
    let reducer = Reducer<BenchRoom, Int> { state, value in
      state.count += value
      state.log.append("added \(value)")
      return .none
    }
    var stores: [Store<BenchRoom, Int>] = []
    for room in 0..<rooms {
      let journal = try await RoomJournal.open(room: "room/\(room)", in: storage, initialState: BenchRoom())
      stores.append(Store(initialState: journal.restoredState, reducer: reducer, commit: journal.commit))
    }
    let before = storage.counters
    let start = nowNanoseconds()
    let latencies = try await withThrowingTaskGroup(of: [Double].self) { group in
      for store in stores {
        group.addTask {
          var latencies: [Double] = []
          for value in 1...actionsPerRoom {
            let sent = nowNanoseconds()
            try await store.send(value).committed()
            latencies.append(Double(nowNanoseconds() - sent))
          }
          return latencies
        }
      }
      return try await group.reduce(into: []) { $0 += $1 }
    }
    let elapsed = nowNanoseconds() - start
    for store in stores { await store.close() }
    return row(
      name: name, writers: rooms, elapsed: elapsed, latencies: latencies, storage: storage, before: before)
  }
}

private func withBenchStorage<T>(_ body: (SQLiteStorage) async throws -> T) async throws -> T {
  let directory = FileManager.default.temporaryDirectory.appending(
    path: "statecast-bench-\(UUID().uuidString)")
  defer { try? FileManager.default.removeItem(at: directory) }
  return try await body(try SQLiteStorage(directory: directory))
}

private func row(
  name: String, writers: Int, elapsed: UInt64, latencies: [Double], storage: SQLiteStorage,
  before: StorageCounters
) -> BenchRow {
  let seconds = Double(elapsed) / 1e9
  let commits = storage.counters.commits - before.commits
  let entries = storage.counters.entries - before.entries
  return BenchRow(
    name: name,
    columns: [
      ("writers", "\(writers)"),
      ("entries", formatRate(Double(entries))),
      ("commits", formatRate(Double(commits))),
      ("entries/commit", String(format: "%.1f", Double(entries) / Double(max(commits, 1)))),
      ("appends/s", formatRate(Double(entries) / seconds)),
      ("commits/s", formatRate(Double(commits) / seconds)),
      ("p50 latency", formatDuration(nanoseconds: percentile(latencies, 0.5))),
      ("p99 latency", formatDuration(nanoseconds: percentile(latencies, 0.99))),
    ]
  )
}
