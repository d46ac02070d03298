import Foundation
import GRDB
import Synchronization

/// The single writer of journal entries: every append that arrives while a
/// transaction is in flight, for any room, waits for the next transaction, which
/// writes them all with one fsync. Each waiter is resumed once its batch is durable.
///
/// With one writer, a transaction carries one entry; with a hundred rooms writing at
/// once, it carries up to a hundred, and the cost of the fsync is shared.
///
/// The queue sits behind a lock, so that appending costs no hop to an actor; the
/// batches are written by one task at a time, on GRDB's writer queue.
final class GroupCommitWriter: Sendable {
  private struct Waiter {
    let entry: JournalEntry
    let continuation: CheckedContinuation<Void, any Error>
  }

  private struct Queue {
    var waiting: [Waiter] = []
    var isWriting = false
    var counters = StorageCounters()
  }

  private let queue = Mutex(Queue())
  private let database: DatabasePool
  private let snapshotInterval: Int64
  private let now: @Sendable () -> Date

  init(database: DatabasePool, snapshotInterval: Int64, now: @escaping @Sendable () -> Date) {
    self.database = database
    self.snapshotInterval = snapshotInterval
    self.now = now
  }

  var counters: StorageCounters { queue.withLock { $0.counters } }

  func append(_ entry: JournalEntry) async throws {
    try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
      let startsWriting = queue.withLock { queue in
        queue.waiting.append(Waiter(entry: entry, continuation: continuation))
        defer { queue.isWriting = true }
        return !queue.isWriting
      }
      if startsWriting {
        Task { await self.writeBatches() }
      }
    }
  }

  /// Writes batches until the queue is empty.
  private func writeBatches() async {
    while true {
      let batch: [Waiter]? = queue.withLock { queue in
        guard !queue.waiting.isEmpty else {
          queue.isWriting = false
          return nil
        }
        defer { queue.waiting = [] }
        return queue.waiting
      }
      guard let batch else { return }
      await write(batch)
    }
  }

  private func write(_ batch: [Waiter]) async {
    let entries = batch.map(\.entry)
    let (interval, time) = (snapshotInterval, now().timeIntervalSince1970)
    do {
      let outcomes = try await database.write { db in
        try JournalBatch.write(entries, in: db, snapshotInterval: interval, now: time)
      }
      let written = outcomes.count { $0 == nil }
      queue.withLock { queue in
        queue.counters.commits += 1
        queue.counters.entries += written
      }
      for (waiter, outcome) in zip(batch, outcomes) {
        if let outcome { waiter.continuation.resume(throwing: outcome) } else { waiter.continuation.resume() }
      }
    } catch {
      let failure = StorageError(error)
      for waiter in batch { waiter.continuation.resume(throwing: failure) }
    }
  }
}
