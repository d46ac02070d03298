import PostgresNIO
import StatecastStorage
import Synchronization

/// How long a request may wait for the database before it fails: while PostgreSQL is
/// unreachable, the connection pool keeps trying to connect (backing off up to a
/// minute), and a request would wait that long; a durable action must be answered
/// `unavailable` within seconds instead, and the cluster's upkeep must go on.
let databaseDeadline: Duration = .seconds(3)

/// How long a journal transaction may take once it has its connection.
let transactionDeadline: Duration = .seconds(5)

/// Runs `body`, failing with ``StorageError/databaseFailed(reason:)`` if it has not
/// finished within `deadline`. The body is then cancelled and left to end on its own:
/// a request waiting for a pooled connection may take a while to notice, and the
/// caller must not wait for that (which a task group would).
func withDeadline<T: Sendable>(
  _ deadline: Duration = databaseDeadline, onTimeout: @escaping @Sendable () async -> Void = {},
  _ body: @escaping @Sendable () async throws -> T
) async throws -> T {
  let work = Task { try await body() }
  let finished = FirstOfTwo()
  return try await withTaskCancellationHandler {
    try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
      Task {
        let result = await work.result
        if finished.claim() { continuation.resume(with: result) }
      }
      Task {
        try? await Task.sleep(for: deadline)
        guard finished.claim() else { return }
        work.cancel()
        await onTimeout()
        continuation.resume(
          throwing: StorageError.databaseFailed(reason: "no answer from the database within \(deadline)"))
      }
    }
  } onCancel: {
    work.cancel()
  }
}

/// Runs `body` on a connection of `client`, failing with
/// ``StorageError/databaseFailed(reason:)`` if no connection is available within
/// `deadline`. Only the wait has a deadline: once `body` has its connection it runs to
/// its end, so a write reported as failed for want of a connection is never made (the
/// wait and the deadline agree under a lock on which of them came first).
func withConnection<T: Sendable>(
  of client: PostgresClient, deadline: Duration = databaseDeadline,
  _ body: @escaping @Sendable (PostgresConnection) async throws -> T
) async throws -> T {
  let race = ConnectionRace()
  let work = Task {
    try await client.withConnection { connection in
      guard race.connect() else { throw CancellationError() }
      return try await body(connection)
    }
  }
  let finished = FirstOfTwo()
  return try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
    Task {
      let result = await work.result
      if finished.claim() { continuation.resume(with: result) }
    }
    Task {
      try? await Task.sleep(for: deadline)
      guard race.timeOut(), finished.claim() else { return }
      work.cancel()
      continuation.resume(
        throwing: StorageError.databaseFailed(reason: "no connection to the database within \(deadline)"))
    }
  }
}

/// Which of two racing tasks finished first.
private final class FirstOfTwo: Sendable {
  private let done = Mutex(false)

  /// True for the first caller only.
  func claim() -> Bool {
    done.withLock { done in
      defer { done = true }
      return !done
    }
  }
}

/// Who came first: the connection or the deadline.
private final class ConnectionRace: Sendable {
  private enum State { case waiting, connected, timedOut }
  private let state = Mutex(State.waiting)

  /// The connection came: true unless the deadline passed first.
  func connect() -> Bool {
    state.withLock { state in
      guard state == .waiting else { return false }
      state = .connected
      return true
    }
  }

  /// The deadline passed: true unless the connection came first.
  func timeOut() -> Bool {
    state.withLock { state in
      guard state == .waiting else { return false }
      state = .timedOut
      return true
    }
  }
}
