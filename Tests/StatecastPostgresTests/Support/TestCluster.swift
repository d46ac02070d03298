import Foundation
import Logging
import StatecastPostgres

/// Runs `body` with a running ``PostgresCluster`` on `url`, and stops it afterwards.
func withCluster<T>(
  _ url: String,
  options: PostgresCluster.Options = PostgresCluster.Options(),
  _ body: (PostgresCluster) async throws -> T
) async throws -> T {
  var logger = Logger(label: "statecast-postgres-test")
  logger.logLevel = .warning
  let cluster = try PostgresCluster(url: url, logger: logger, options: options)
  let running = Task { try await cluster.run() }
  do {
    try await cluster.waitUntilReady()
    let result = try await body(cluster)
    running.cancel()
    _ = await running.result
    return result
  } catch {
    running.cancel()
    _ = await running.result
    throw error
  }
}

/// Polls `condition` until it holds or `timeout` passes; for what expires by the
/// database's clock, where there is no event to await.
func eventually(
  timeout: Duration = .seconds(10), _ condition: () async throws -> Bool
) async throws -> Bool {
  let deadline = ContinuousClock.now + timeout
  while ContinuousClock.now < deadline {
    if try await condition() { return true }
    try await Task.sleep(for: .milliseconds(50))
  }
  return try await condition()
}
