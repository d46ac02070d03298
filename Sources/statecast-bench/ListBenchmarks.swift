import Foundation
import Statecast
import StatecastExamples
import StatecastJSON

/// Section "lists": the windowed list of the 100,000-row demo, without the network.
///
/// - Memory per session: resident memory added per session that holds the topic (its
///   store's state and the last view as JSON, as a topic host keeps it), against the
///   floor of a view that holds every row (what a plain list would keep per session).
/// - Bytes per scroll step: the patch frame a window move sends, against a fresh
///   snapshot of the window and of the whole list.
/// - Encode + diff of a window change: reduce the scroll, project the view, encode and
///   diff it, serialize the patch; against the floor of encoding the same view alone.
func runListBenchmarks() async throws {
  let table = RowsTable.shared
  var rows: [BenchRow] = []

  // Memory: sessions at once, each as a topic host keeps it.
  let sessions = benchSize(200, minimum: 4)
  let floorSessions = isQuickRun ? 1 : 3
  var alive: [Any] = []
  var perSession: [(String, Double)] = []
  for (name, filter) in [
    ("no filter", ""), ("filter \"lovelace\" (1 in 24)", "lovelace"), ("filter \"a\" (most rows)", "a"),
  ] {
    let bytes = try memoryPerSession(count: sessions, alive: &alive) {
      var state = Rows.State(table: table)
      _ = Rows.reducer().reduce(into: &state, action: .filterChanged(text: filter))
      var tracker = JSONViewTracker()
      _ = try tracker.update(to: Rows.viewState(state))
      return (state, tracker)
    }
    perSession.append((name, bytes))
  }
  // The floor last: its sessions are far larger, and would leave memory for the others
  // to reuse.
  let everyRow = try memoryPerSession(count: floorSessions, alive: &alive) {
    var tracker = JSONViewTracker()
    _ = try tracker.update(to: (0..<table.count).map(table.row))
    return tracker
  }
  alive.removeAll()
  for (name, bytes) in perSession {
    rows.append(
      BenchRow(
        name: "memory per session, \(name)",
        columns: [
          ("sessions", "\(sessions)"), ("value", formatSize(bytes)),
          ("floor", "all rows in the view: \(formatSize(everyRow))"),
          ("ratio", String(format: "%.4f", bytes / everyRow)),
        ]))
  }

  // Bytes per scroll step, from the top of the list.
  let windowSnapshot = try JSONValueEncoder().encode(Rows.viewState(Rows.State(table: table))).serialized()
    .count
  let wholeList = try JSONValueEncoder().encode((0..<table.count).map(table.row)).serialized().count
  for (name, steps) in [
    ("scroll 10 rows", [10, 20, 30, 40]), ("scroll a page (60 rows)", [60, 120, 180]),
    ("jump to the end", [99_990]),
  ] {
    var state = Rows.State(table: table)
    var tracker = JSONViewTracker()
    _ = try tracker.update(to: Rows.viewState(state))
    var sizes: [Double] = []
    for start in steps {
      _ = Rows.reducer().reduce(into: &state, action: .scrolled(window: ListWindow(start: start, count: 60)))
      sizes.append(Double(patchFrameBytes(try tracker.update(to: Rows.viewState(state)))))
    }
    rows.append(
      BenchRow(
        name: "bytes per step, \(name)",
        columns: [
          ("sessions", "1"), ("value", formatSize(median(sizes))),
          (
            "floor",
            "window snapshot \(formatSize(Double(windowSnapshot))), whole list \(formatSize(Double(wholeList)))"
          ),
          ("ratio", String(format: "%.2f", median(sizes) / Double(windowSnapshot))),
        ]))
  }

  // Encode + diff of a window change (10 rows down, then back), against encoding alone.
  let operations = benchSize(20_000, minimum: 50)
  let runs = benchSize(7, minimum: 2)
  var diffTimes: [Double] = []
  var encodeTimes: [Double] = []
  for _ in 0..<runs {
    var state = Rows.State(table: table)
    var tracker = JSONViewTracker()
    _ = try tracker.update(to: Rows.viewState(state))
    var bytes = 0
    var start = nowNanoseconds()
    for index in 0..<operations {
      _ = Rows.reducer().reduce(
        into: &state, action: .scrolled(window: ListWindow(start: 5_000 + (index % 2) * 10, count: 60)))
      bytes += try tracker.update(to: Rows.viewState(state)).serialized().count
    }
    diffTimes.append(Double(nowNanoseconds() - start) / Double(operations))
    precondition(bytes > 0, "a window change must send something")
    let encoder = JSONValueEncoder()
    start = nowNanoseconds()
    for _ in 0..<operations { bytes += try encoder.encode(Rows.viewState(state)).serialized().count }
    encodeTimes.append(Double(nowNanoseconds() - start) / Double(operations))
  }
  rows.append(
    BenchRow(
      name: "reduce + view + encode + diff of a 10-row window change",
      columns: [
        ("sessions", "1"), ("value", formatDuration(nanoseconds: median(diffTimes))),
        ("floor", "encode + serialize the window: \(formatDuration(nanoseconds: median(encodeTimes)))"),
        ("ratio", String(format: "%.2f", median(diffTimes) / median(encodeTimes))),
      ]))
  printTable("lists (100,000-row table, 60-row window)", rows)
}

/// The size of the `patch` frame carrying `patch` (the server's envelope, a 6-digit revision).
private func patchFrameBytes(_ patch: JSONPatch) -> Int {
  #"{"op":"patch","topic":"rows","rev":123456,"ops":}"#.utf8.count + patch.serialized().count
}

/// Resident memory added per value that `make` returns, with `count` of them alive at
/// once. They are kept in `alive` until the section ends: memory freed by one measurement
/// would otherwise be reused by the next without the resident set growing.
private func memoryPerSession<Value>(count: Int, alive: inout [Any], make: () throws -> Value) throws
  -> Double
{
  var kept: [Value] = []
  kept.reserveCapacity(count)
  let before = residentBytes()
  for _ in 0..<count { kept.append(try make()) }
  let after = residentBytes()
  alive.append(kept)
  return max(0, Double(after - before)) / Double(count)
}

/// The process's resident set size, from `/proc/self/statm`.
private func residentBytes() -> Int {
  guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
  let fields = text.split(separator: " ")
  guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
  return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
}

private func formatSize(_ bytes: Double) -> String {
  switch bytes {
  case ..<10_000: String(format: "%.0f B", bytes)
  case ..<10_000_000: String(format: "%.1f KB", bytes / 1_000)
  default: String(format: "%.1f MB", bytes / 1_000_000)
  }
}
