import Synchronization

/// The single writer of a storage engine's journal entries: every append that arrives
/// while a batch is being written, for any room, waits for the next batch, which the
/// engine writes in one transaction (one fsync, one WAL flush). Each waiter is resumed
/// once its batch is durable.
///
/// With one writer, a batch carries one entry; with a hundred rooms writing at once, it
/// carries up to a hundred, and the cost of the commit is shared. The queue sits behind
/// a lock, so that appending costs no hop to an actor; batches are written by one task
/// at a time.
///
/// The engines differ only in how one batch is written, so that is all they give:
/// ``WriteBatch`` returns one outcome per entry (`nil` for written, or the error of an
/// entry refused on its own, such as a revision conflict, without failing the others);
/// a thrown error fails the whole batch, mapped to a ``StorageError`` by `failure`.
package final class GroupCommit: Sendable {
  /// Writes `entries` in one transaction; one outcome per entry, in order.
  package typealias WriteBatch = @Sendable (_ entries: [JournalEntry]) async throws -> [StorageError?]

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
  private let writeBatch: WriteBatch
  private let failure: @Sendable (any Error) -> StorageError

  package init(
    writeBatch: @escaping WriteBatch, failure: @escaping @Sendable (any Error) -> StorageError
  ) {
    self.writeBatch = writeBatch
    self.failure = failure
  }

  /// Commits and entries written so far.
  package var counters: StorageCounters { queue.withLock { $0.counters } }

  /// Returns once `entry` is durable; throws its own refusal or its batch's failure.
  package func append(_ entry: JournalEntry) async throws {
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
    do {
      let outcomes = try await writeBatch(batch.map(\.entry))
      let written = outcomes.count { $0 == nil }
      queue.withLock { queue in
        queue.counters.commits += 1
        queue.counters.entries += written
      }
      for (waiter, outcome) in zip(batch, outcomes) {
        if let outcome { waiter.continuation.resume(throwing: outcome) } else { waiter.continuation.resume() }
      }
    } catch {
      let failure = self.failure(error)
      for waiter in batch { waiter.continuation.resume(throwing: failure) }
    }
  }
}
