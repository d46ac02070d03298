import Foundation

/// One printed row of a benchmark section: a name and its measured columns.
struct BenchRow {
  var name: String
  var columns: [(String, String)]
}

/// Prints benchmark rows as an aligned plain-text table with a section title.
func printTable(_ title: String, _ rows: [BenchRow]) {
  guard let first = rows.first else { return }
  let headers = ["case"] + first.columns.map(\.0)
  let cells = rows.map { [$0.name] + $0.columns.map(\.1) }
  let widths = headers.indices.map { column in
    ([headers[column]] + cells.map { $0[column] }).map(\.count).max() ?? 0
  }
  func line(_ values: [String]) -> String {
    values.enumerated().map { index, value in
      index == 0
        ? value.padding(toLength: widths[index], withPad: " ", startingAt: 0)
        : String(repeating: " ", count: widths[index] - value.count) + value
    }.joined(separator: "  ")
  }
  print("\n## \(title)\n")
  print(line(headers))
  print(widths.map { String(repeating: "-", count: $0) }.joined(separator: "  "))
  for row in cells { print(line(row)) }
}

/// The median of a non-empty list of measurements.
func median(_ values: [Double]) -> Double {
  let sorted = values.sorted()
  let middle = sorted.count / 2
  return sorted.count % 2 == 0 ? (sorted[middle - 1] + sorted[middle]) / 2 : sorted[middle]
}

/// The value at quantile `q` (0...1) of a non-empty list of measurements.
func percentile(_ values: [Double], _ q: Double) -> Double {
  let sorted = values.sorted()
  let index = min(sorted.count - 1, max(0, Int((Double(sorted.count - 1) * q).rounded())))
  return sorted[index]
}

/// Monotonic nanoseconds, for timing benchmark iterations.
func nowNanoseconds() -> UInt64 {
  DispatchTime.now().uptimeNanoseconds
}

/// Formats a count per second with thousands separators, e.g. `1,234,567`.
func formatRate(_ perSecond: Double) -> String {
  let formatter = NumberFormatter()
  formatter.numberStyle = .decimal
  formatter.maximumFractionDigits = 0
  return formatter.string(from: NSNumber(value: perSecond)) ?? String(Int(perSecond))
}

/// Formats a duration given in nanoseconds with a unit that keeps it readable.
func formatDuration(nanoseconds: Double) -> String {
  switch nanoseconds {
  case ..<1_000: String(format: "%.0f ns", nanoseconds)
  case ..<1_000_000: String(format: "%.1f µs", nanoseconds / 1_000)
  case ..<1_000_000_000: String(format: "%.2f ms", nanoseconds / 1_000_000)
  default: String(format: "%.2f s", nanoseconds / 1_000_000_000)
  }
}
