import Foundation
import Prometheus
import StatecastTransport

/// Keeps `/metrics` current while the server runs: makes the ``ServerMetrics`` that
/// ``ServerConfiguration/metrics`` asks for, samples the gauges at once, every second and
/// after each scrape, and renders the registry for the transport to serve.
///
/// Why its own type: the server only says what to sample (its registries' counts); which
/// backend, how often, and what the endpoint serves are decided here, in one place.
///
///     let publisher = MetricsPublisher(configuration.metrics)
///     publisher?.start { [weak server] in server?.metricsSample }
///     publisher?.stop()
final class MetricsPublisher: Sendable {
  /// What the server counts.
  let metrics: ServerMetrics
  /// The registry `/metrics` renders, when it is served.
  private let registry: PrometheusCollectorRegistry?
  private let tasks = Locked([Task<Void, Never>]())

  /// The metrics `reporting` asks for, or `nil` for `.off`.
  init?(_ reporting: MetricsReporting) {
    switch reporting {
    case .prometheus(let registry):
      var factory = PrometheusMetricsFactory(registry: registry)
      factory.durationHistogramBuckets = [
        ServerMetrics.Name.actionSeconds: ServerMetrics.latencyBuckets,
        ServerMetrics.Name.commitSeconds: ServerMetrics.latencyBuckets,
      ]
      metrics = ServerMetrics(factory: factory, endpoint: MetricsEndpoint())
      self.registry = registry
    case .factory(let factory):
      metrics = ServerMetrics(factory: factory, endpoint: nil)
      registry = nil
    case .off:
      return nil
    }
  }

  /// Samples the gauges and the transport's counters now (`read` answers `nil` once the
  /// server is gone) and, when `/metrics` is served, renders it for the next scrape. Off
  /// the service thread.
  func refresh(_ read: () -> ServerMetrics.Sample?) {
    metrics.sample(read)
    if let endpoint = metrics.endpoint, let registry {
      endpoint.publish(registry.emitToBuffer())
    }
  }

  /// Refreshes at once, then every second and after each scrape, until ``stop()``.
  func start(_ read: @escaping @Sendable () -> ServerMetrics.Sample?) {
    refresh(read)
    var started: [Task<Void, Never>] = []
    if let scrapes = metrics.endpoint?.scrapes {
      started.append(
        Task { [weak self] in
          for await _ in scrapes { self?.refresh(read) }
        })
    }
    started.append(
      Task { [weak self] in
        while !Task.isCancelled {
          try? await Task.sleep(for: .seconds(1))
          self?.refresh(read)
        }
      })
    tasks.withLock { $0 += started }
  }

  /// Stops refreshing; the endpoint's scrapes end.
  func stop() {
    let running = tasks.withLock { tasks in
      defer { tasks = [] }
      return tasks
    }
    for task in running { task.cancel() }
    metrics.endpoint?.finish()
  }
}
