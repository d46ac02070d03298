/// Runs a cancellable wait against a real-time limit.
///
/// The TestStore waits for effects that run concurrently; the limit is measured on the
/// continuous clock, never on a test clock the feature might be using.
///
/// - Returns: `true` when `wait` returned before `timeout`.
func finished(
  within timeout: Duration,
  _ wait: @escaping @Sendable () async -> Void
) async -> Bool {
  await withTaskGroup(of: Bool.self) { group in
    group.addTask {
      await wait()
      return !Task.isCancelled
    }
    group.addTask {
      try? await Task.sleep(for: timeout)
      return false
    }
    let first = await group.next() ?? false
    group.cancelAll()
    return first
  }
}
