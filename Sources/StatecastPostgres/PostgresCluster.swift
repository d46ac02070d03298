public import Logging
import PostgresNIO
public import ServiceLifecycle
public import StatecastStorage

/// One node of a cluster of server processes sharing a PostgreSQL database: its
/// ``storage`` (rooms and sessions) and its ``backplane`` (leases, heartbeats,
/// messages), under one node id. A server takes it whole, as its persistence
/// (`persistence: .cluster(postgres)`).
///
/// ```swift
/// let postgres = try PostgresCluster(url: "postgres://statecast:secret@127.0.0.1:5432/statecast", logger: logger)
/// let server = StatecastServer(
///   routes: routes, persistence: .cluster(postgres), waitingFor: { try await postgres.waitUntilReady() })
/// let group = ServiceGroup(services: [postgres, server], logger: logger)
/// ```
///
/// Connections are not encrypted (no TLS): the database is meant to be reached over
/// loopback or a private network.
public final class PostgresCluster: Service, ClusterDatabase, Sendable {
  /// Settings of a ``PostgresCluster``.
  public struct Options: Sendable {
    /// Journal entries after which a room's state is written whole and its journal
    /// deleted: a restore replays at most this many patches.
    public var snapshotInterval = 100
    /// The most connections the pool of queries and appends opens (the listener and
    /// the sender have one each besides).
    public var maximumConnections = 10

    public init() {}
  }

  /// This node's id: 16 lowercase hexadecimal characters, new for each instance.
  public let node: String
  public let storage: PostgresStorage
  public let backplane: PostgresBackplane
  private let client: PostgresClient
  private let sender: PostgresClient
  private let url: PostgresURL
  private let logger: Logger
  private let ready = ReadySignal()

  /// Parses `url` (`postgres://user[:password]@host[:port]/database`); nothing
  /// connects before ``run()``. Throws ``PostgresClusterError/invalidURL(_:reason:)``.
  public init(url: String, logger: Logger, options: Options = Options()) throws {
    self.url = try PostgresURL(url)
    self.logger = logger
    node = (0..<16).map { _ in String(Int.random(in: 0..<16), radix: 16) }.joined()
    client = PostgresClient(
      configuration: self.url.clientConfiguration(maximumConnections: max(1, options.maximumConnections)),
      backgroundLogger: logger
    )
    // One connection for every send: what this node sends arrives in order.
    sender = PostgresClient(
      configuration: self.url.clientConfiguration(maximumConnections: 1), backgroundLogger: logger)
    storage = PostgresStorage(
      node: node, client: client, snapshotInterval: options.snapshotInterval, logger: logger)
    backplane = PostgresBackplane(node: node, client: client, sender: sender, logger: logger)
  }

  /// Runs the connections: creates the schema if it is missing (retrying while the
  /// database cannot be reached), then listens for messages, and collects garbage
  /// every minute. Returns when the task is cancelled or on a graceful shutdown.
  /// Call it once.
  public func run() async throws {
    await cancelWhenGracefulShutdown {
      await withDiscardingTaskGroup { group in
        group.addTask { await self.client.run() }
        group.addTask { await self.sender.run() }
        group.addTask {
          guard await self.createSchema() else { return }
          let listener = InboxListener(
            backplane: self.backplane, configuration: self.url.connectionConfiguration, logger: self.logger)
          await withDiscardingTaskGroup { group in
            group.addTask { await listener.run { self.ready.signal() } }
            group.addTask { await self.collectGarbage() }
          }
        }
      }
    }
    backplane.inboxContinuation.finish()
  }

  /// Returns once the schema exists and the node listens for messages (which
  /// ``run()`` does first).
  public func waitUntilReady() async throws {
    await ready.wait()
    try Task.checkCancellation()
  }

  /// Creates the schema, retrying with back-off; `false` if cancelled first.
  private func createSchema() async -> Bool {
    var backoff: Duration = .milliseconds(100)
    while !Task.isCancelled {
      do {
        try await PostgresSchema.create(on: client, logger: logger)
        return true
      } catch {
        logger.error(
          "cannot create the Statecast schema; retrying",
          metadata: ["error": "\(StorageError(postgres: error))"])
      }
      do { try await Task.sleep(for: backoff) } catch { return false }
      backoff = min(backoff * 2, .seconds(5))
    }
    return false
  }

  private func collectGarbage() async {
    while true {
      do { try await Task.sleep(for: .seconds(60)) } catch { return }
      do {
        try await backplane.collectGarbage()
      } catch {
        logger.warning(
          "backplane garbage collection failed", metadata: ["error": "\(StorageError(postgres: error))"])
      }
    }
  }
}
