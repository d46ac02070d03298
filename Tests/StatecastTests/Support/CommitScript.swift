import Statecast

/// A commit function that holds every commit until the test answers it, so that a
/// test sees what a durable store hands over and decides whether it is stored.
final class CommitScript<State: Sendable>: Sendable {
  /// One commit in flight, waiting for the test's answer.
  struct Arrival: Sendable {
    let commit: Commit<State>
    let answer: CheckedContinuation<Void, any Error>

    func succeed() { answer.resume() }
    func fail(_ error: any Error = Failure(reason: "disk full")) { answer.resume(throwing: error) }
  }

  private let stream: AsyncStream<Arrival>
  private let continuation: AsyncStream<Arrival>.Continuation

  init() {
    (stream, continuation) = AsyncStream.makeStream(of: Arrival.self)
  }

  /// The function to pass to `Store(..., commit:)`.
  var commit: @Sendable (Commit<State>) async throws -> Void {
    { [continuation] commit in
      try await withCheckedThrowingContinuation { answer in
        continuation.yield(Arrival(commit: commit, answer: answer))
      }
    }
  }

  /// The commits in the order they arrive.
  var arrivals: AsyncStream<Arrival> { stream }
}
