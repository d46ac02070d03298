import Foundation
import Synchronization

/// Counters of what a ``WebSocketTransport`` has done since it started, for metrics.
/// Read with ``WebSocketTransport/statistics``.
package struct TransportStatistics: Sendable, Equatable {
  /// WebSocket frames written (both endpoints; close frames not included).
  package var framesOut = 0
  /// Payload bytes of those frames.
  package var bytesOut = 0
  /// Close frames the server sent, by close code (a close the peer started not included).
  package var closesByCode: [UInt16: Int] = [:]
  /// Connections closed because they read too slowly (1008 "too slow").
  package var slowReaderCloses = 0
  /// Upgrades refused with an HTTP status, by status (401, 403, 503, ...).
  package var refusedUpgrades: [Int: Int] = [:]
  /// Upgrades refused because of ``TransportConfiguration/maxConnections`` or
  /// ``TransportConfiguration/maxConnectionsPerAddress`` (also counted under 503 above).
  package var connectionLimitRefusals = 0

  package init() {}
}

/// The transport's counters: the per-frame ones atomic (bumped on the service thread,
/// read from any), the rare ones under a lock.
final class TransportCounters: Sendable {
  let framesOut = Atomic<Int>(0)
  let bytesOut = Atomic<Int>(0)
  private let rare = Locked(TransportStatistics())

  /// One frame of `bytes` payload bytes written. Service thread.
  func wrote(bytes: Int) {
    framesOut.add(1, ordering: .relaxed)
    bytesOut.add(bytes, ordering: .relaxed)
  }

  /// A close frame with `code` queued. Service thread.
  func closed(code: UInt16) {
    rare.withLock { $0.closesByCode[code, default: 0] += 1 }
  }

  /// A slow reader closed. Service thread.
  func collapsed() {
    rare.withLock { $0.slowReaderCloses += 1 }
  }

  /// An upgrade refused with `status`. Service thread.
  func refused(status: Int) {
    rare.withLock { $0.refusedUpgrades[status, default: 0] += 1 }
  }

  /// An upgrade refused by a connection limit. Service thread.
  func refusedOverLimit() {
    rare.withLock { $0.connectionLimitRefusals += 1 }
  }

  /// A copy of every counter. Any thread.
  var snapshot: TransportStatistics {
    var statistics = rare.withLock { $0 }
    statistics.framesOut = framesOut.load(ordering: .relaxed)
    statistics.bytesOut = bytesOut.load(ordering: .relaxed)
    return statistics
  }
}

/// The body `GET /metrics` answers, kept current by app code off the service thread.
///
/// Why: the service thread never runs app code nor waits for it, so the transport
/// answers a scrape with whatever body was last ``publish(_:)``ed; each scrape also
/// signals ``scrapes`` so that its owner can refresh the body for the next one.
///
///     let metrics = MetricsEndpoint()
///     configuration.metrics = metrics
///     Task { for await _ in metrics.scrapes { metrics.publish(render()) } }
package final class MetricsEndpoint: Sendable {
  /// The response's `Content-Type` (the Prometheus text format).
  package static let contentType = "text/plain; version=0.0.4; charset=utf-8"

  private let body = Locked<[UInt8]>([])
  /// One element per scrape, after it was answered (at most one waiting: scrapes that
  /// arrive while the owner refreshes are coalesced).
  package let scrapes: AsyncStream<Void>
  private let scraped: AsyncStream<Void>.Continuation

  package init() {
    (scrapes, scraped) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
  }

  /// Replaces the body the next scrapes get. Any thread.
  package func publish(_ bytes: [UInt8]) {
    body.withLock { $0 = bytes }
  }

  /// The current body; signals ``scrapes``. Service thread (any thread is safe).
  func scrape() -> [UInt8] {
    defer { scraped.yield() }
    return body.withLock { $0 }
  }

  /// Ends ``scrapes``.
  package func finish() {
    scraped.finish()
  }
}
