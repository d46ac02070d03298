/// The transport's service thread as a Swift `TaskExecutor`.
///
/// A task created with `Task(executorPreference: transport.executor)` runs its
/// nonisolated code, and the default actors it calls while they are free, on the thread
/// that reads and writes the sockets, the way SwiftNIO runs a channel's handlers on its
/// event loop. The server runs each socket's messages so: an action is parsed, reduced,
/// diffed and its patch and reply queued inside the `RECEIVE` callback that read it, and
/// written in the same turn of the loop. Handed to a worker thread instead, the action
/// would cost two thread wake-ups (to the worker, and back through the loop's pipe),
/// a good part of its round trip.
///
/// What follows from it: code a preferring task runs must not block (a blocking call
/// stalls every socket). Slow work belongs in a task of its own; a task created with
/// `Task {}` from a preferring task does not inherit the preference.
///
/// Jobs enqueued on the service thread run before it next waits for events (at the end of
/// the callback that enqueued them, or of the loop's turn); jobs from other threads wake
/// the loop. Before the loop starts and after it ends, jobs run on the global concurrent
/// executor, so that no task is ever stranded.
package final class ServiceExecutor: TaskExecutor, Sendable {
  private struct State {
    var jobs: [UnownedJob] = []
    /// Set while the service loop runs (between ``begin(wake:)`` and ``end()``).
    var wake: (@Sendable () -> Void)?
  }

  private let state = Locked(State())
  /// The thread the jobs run on, once a transport's loop runs there.
  package let serviceThread = ServiceThread()

  /// The most rounds of jobs one ``runJobs()`` runs before it lets the loop serve the
  /// sockets again (jobs that keep enqueueing jobs, such as a `Task.yield()` loop).
  private static let roundsPerTurn = 64

  /// An executor for one transport (``WebSocketTransport/init(configuration:handler:executor:)``).
  package init() {}

  /// Any thread.
  package func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    let accepted = state.withLock { state in
      guard let wake = state.wake else { return false }
      state.jobs.append(job)
      // The first job since the last run wakes the loop; the service thread runs what it
      // enqueues itself before it next waits. Called under the lock, so that `end()`
      // cannot let the context go in between.
      if state.jobs.count == 1 && !serviceThread.isCurrentAndRunning { wake() }
      return true
    }
    if !accepted { globalConcurrentExecutor.enqueue(ExecutorJob(job)) }
  }

  /// The loop is about to start: from now on jobs run on the service thread, and `wake`
  /// makes the loop turn (`lws_cancel_service`, callable from any thread while the
  /// context exists). The starting thread, before the service thread runs.
  func begin(wake: @escaping @Sendable () -> Void) {
    state.withLock { $0.wake = wake }
  }

  /// Runs the jobs enqueued so far, and those they enqueue, up to ``roundsPerTurn``
  /// rounds. Service thread.
  func runJobs() {
    var batch: [UnownedJob] = []
    for _ in 0..<Self.roundsPerTurn {
      state.withLock { swap(&batch, &$0.jobs) }
      guard !batch.isEmpty else { return }
      for job in batch { job.runSynchronously(on: asUnownedTaskExecutor()) }
      batch.removeAll(keepingCapacity: true)
    }
    // More keep coming: serve the sockets, then come back.
    state.withLock { $0.wake?() }
  }

  /// The loop is ending: what is still queued, and every job after it, runs on the
  /// global concurrent executor, and `wake` is never called again. Service thread, before
  /// the context is destroyed.
  func end() {
    let left = state.withLock { state in
      state.wake = nil
      defer { state.jobs = [] }
      return state.jobs
    }
    for job in left { globalConcurrentExecutor.enqueue(ExecutorJob(job)) }
  }
}
