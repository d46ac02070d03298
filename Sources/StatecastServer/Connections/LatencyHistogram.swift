/// A Prometheus histogram of durations: counts per upper bound (cumulative when
/// rendered), their sum and count. Not thread-safe: owned by ``ServerMetrics`` under its
/// lock.
struct LatencyHistogram: Sendable {
  /// Upper bounds in seconds, from 100 µs (an in-memory action) to 1 s.
  static let bounds: [Double] = [
    0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1,
  ]

  private var counts = [Int](repeating: 0, count: LatencyHistogram.bounds.count)
  private(set) var count = 0
  private(set) var sum = 0.0

  mutating func record(_ seconds: Double) {
    if let index = Self.bounds.firstIndex(where: { seconds <= $0 }) { counts[index] += 1 }
    count += 1
    sum += seconds
  }

  /// The `_bucket`, `_sum` and `_count` lines of metric `name`.
  func lines(_ name: String) -> String {
    var text = ""
    var cumulative = 0
    for (bound, count) in zip(Self.bounds, counts) {
      cumulative += count
      text += "\(name)_bucket{le=\"\(bound)\"} \(cumulative)\n"
    }
    text += "\(name)_bucket{le=\"+Inf\"} \(count)\n\(name)_sum \(sum)\n\(name)_count \(count)\n"
    return text
  }
}

extension Duration {
  /// The duration in seconds, as a `Double`.
  var seconds: Double {
    Double(components.seconds) + Double(components.attoseconds) * 1e-18
  }
}
