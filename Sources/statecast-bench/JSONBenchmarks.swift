import Foundation
import StatecastJSON

/// The JSON diff engine on views of 100 to 100,000 rows (six fields each): encoding
/// from scratch against Foundation, then the per-action cost of `JSONViewTracker`
/// (encode + diff) for one changed field, one row inserted at the top, and every row
/// changed, with the patch size next to the snapshot size; decoding (a stored state
/// restored, a client action) against Foundation's `JSONDecoder`.
func runJSONBenchmarks() async throws {
  var encodeRows: [BenchRow] = []
  var actionRows: [BenchRow] = []
  var diffRows: [BenchRow] = []
  var parseRows: [BenchRow] = []
  var decodeRows: [BenchRow] = [decodeActionRow()]
  for count in isQuickRun ? [100, 1_000] : [100, 1_000, 10_000, 100_000] {
    let iterations = isQuickRun ? 3 : max(5, min(200, 200_000 / count))
    let view = BenchView(rows: count)

    // Encoding from scratch.
    let ours = measure(iterations) { _ = try! JSONValueEncoder().encode(view).serialized() }
    let valueOnly = measure(iterations) { _ = try! JSONValueEncoder().encode(view) }
    let foundation = measure(iterations) {
      let data = try! JSONEncoder().encode(view)
      _ = try! JSONSerialization.jsonObject(with: data)
    }
    let snapshot = try JSONValueEncoder().encode(view)
    let snapshotBytes = snapshot.serialized()
    encodeRows.append(
      BenchRow(
        name: "\(count) rows",
        columns: [
          ("JSONValueEncoder", formatDuration(nanoseconds: valueOnly)),
          ("+ serialize", formatDuration(nanoseconds: ours)),
          ("JSONEncoder+JSONSerialization", formatDuration(nanoseconds: foundation)),
          ("speed-up", String(format: "%.1fx", foundation / valueOnly)),
          ("snapshot", formatBytes(snapshotBytes.count)),
        ]))

    // Parsing the snapshot back.
    let parse = measure(iterations) { _ = try! JSON(parsing: snapshotBytes) }
    let foundationParse = measure(iterations) {
      _ = try! JSONSerialization.jsonObject(with: Data(snapshotBytes))
    }
    parseRows.append(
      BenchRow(
        name: "\(count) rows",
        columns: [
          ("JSON(parsing:)", formatDuration(nanoseconds: parse)),
          ("JSONSerialization", formatDuration(nanoseconds: foundationParse)),
          ("MB/s", String(format: "%.0f", Double(snapshotBytes.count) / parse * 1_000)),
        ]))

    // Decoding the view back, as a durable store's state is restored.
    let decode = measure(iterations) { _ = try! JSONValueDecoder().decode(BenchView.self, from: snapshot) }
    let foundationDecode = measure(iterations) {
      _ = try! JSONDecoder().decode(BenchView.self, from: Data(snapshotBytes))
    }
    decodeRows.append(
      BenchRow(
        name: "a view of \(count) rows",
        columns: [
          ("JSONValueDecoder", formatDuration(nanoseconds: decode)),
          ("JSONDecoder (from bytes)", formatDuration(nanoseconds: foundationDecode)),
          ("speed-up", String(format: "%.1fx", foundationDecode / decode)),
        ]))

    // Per action: tracker.update (encode with cache + diff) on the changed view.
    var tracker = JSONViewTracker()
    _ = try tracker.update(to: view)
    var changing = view
    var step = 0
    var patchBytes = 0
    let oneField = try measureUpdates(iterations, &tracker) {
      step += 1
      changing.rows[(step * 7919) % count].done.toggle()
      return changing
    } patchSize: {
      patchBytes = $0
    }
    let oneFieldBytes = patchBytes

    var inserting = view
    var insertTracker = JSONViewTracker()
    _ = try insertTracker.update(to: inserting)
    let insertTop = try measureUpdates(iterations, &insertTracker) {
      step += 1
      inserting.rows.insert(BenchRow6(id: -step), at: 0)
      return inserting
    } patchSize: {
      patchBytes = $0
    }
    let insertBytes = patchBytes

    var full = view
    var fullTracker = JSONViewTracker()
    _ = try fullTracker.update(to: full)
    let fullIterations = max(3, iterations / 4)
    let allChanged = try measureUpdates(fullIterations, &fullTracker) {
      step += 1
      for index in full.rows.indices { full.rows[index].priority = step }
      return full
    } patchSize: {
      patchBytes = $0
    }
    let fullBytes = patchBytes

    actionRows.append(
      BenchRow(
        name: "\(count) rows",
        columns: [
          ("1 field", formatDuration(nanoseconds: oneField.median)),
          ("p99", formatDuration(nanoseconds: oneField.p99)),
          ("patch", formatBytes(oneFieldBytes)),
          ("insert at top", formatDuration(nanoseconds: insertTop.median)),
          ("patch ", formatBytes(insertBytes)),
          ("all rows", formatDuration(nanoseconds: allChanged.median)),
          ("patch  ", formatBytes(fullBytes)),
          ("snapshot", formatBytes(snapshotBytes.count)),
        ]))

    // Diff alone, on fresh (uncached) encodings: every subtree has to be compared.
    var edited = view
    edited.rows[count / 2].done.toggle()
    let oneFieldJSON = try JSONValueEncoder().encode(edited)
    var inserted = view
    inserted.rows.insert(BenchRow6(id: -1), at: 0)
    let insertedJSON = try JSONValueEncoder().encode(inserted)
    var everything = view
    for index in everything.rows.indices { everything.rows[index].priority = -1 }
    let everythingJSON = try JSONValueEncoder().encode(everything)
    diffRows.append(
      BenchRow(
        name: "\(count) rows",
        columns: [
          (
            "1 field",
            formatDuration(
              nanoseconds: measure(iterations) { _ = JSONPatch.diff(from: snapshot, to: oneFieldJSON) })
          ),
          (
            "insert at top",
            formatDuration(
              nanoseconds: measure(iterations) { _ = JSONPatch.diff(from: snapshot, to: insertedJSON) })
          ),
          (
            "all rows",
            formatDuration(
              nanoseconds: measure(fullIterations) { _ = JSONPatch.diff(from: snapshot, to: everythingJSON) })
          ),
        ]))
  }
  printTable("json: encode from scratch (median)", encodeRows)
  printTable("json: per action, JSONViewTracker.update = cached encode + diff (median)", actionRows)
  printTable("json: JSONPatch.diff alone on uncached documents (median)", diffRows)
  printTable("json: parse the snapshot (median)", parseRows)
  printTable("json: decode (median; JSONValueDecoder from parsed JSON)", decodeRows)
}

/// A client action as a topic decodes it: `{"rename":{"index":…,"title":…}}`, 100,000
/// times per run.
private func decodeActionRow() -> BenchRow {
  let count = isQuickRun ? 1_000 : 100_000
  let json: JSON = ["rename": ["index": 42, "title": "Renamed task"]]
  let bytes = Data(json.serialized())
  let ours = measure(isQuickRun ? 3 : 9) {
    for _ in 0..<count { _ = try! JSONValueDecoder().decode(BenchAction.self, from: json) }
  }
  let foundation = measure(isQuickRun ? 3 : 9) {
    for _ in 0..<count { _ = try! JSONDecoder().decode(BenchAction.self, from: bytes) }
  }
  return BenchRow(
    name: "a client action",
    columns: [
      ("JSONValueDecoder", formatDuration(nanoseconds: ours / Double(count))),
      ("JSONDecoder (from bytes)", formatDuration(nanoseconds: foundation / Double(count))),
      ("speed-up", String(format: "%.1fx", foundation / ours)),
    ])
}

private enum BenchAction: Decodable {
  case increment
  case rename(index: Int, title: String)
}

/// One row of the benchmark view: six fields, as a typical table row.
private struct BenchRow6: Codable, Equatable, Sendable {
  var id: Int
  var title: String
  var done: Bool
  var priority: Int
  var owner: String
  var updatedAt: Double

  init(id: Int) {
    self.id = id
    title = "Task number \(id)"
    done = id % 3 == 0
    priority = id % 5
    owner = ["ada", "grace", "linus", "barbara"][abs(id) % 4]
    updatedAt = 1_700_000_000.5 + Double(id)
  }
}

private struct BenchView: Codable, Sendable {
  var title = "Tasks"
  var filter = "all"
  var rows: [BenchRow6]

  init(rows count: Int) {
    rows = (0..<count).map { BenchRow6(id: $0) }
  }
}

/// Median nanoseconds of `body` over `iterations` runs (after one warm-up run).
private func measure(_ iterations: Int, _ body: () -> Void) -> Double {
  body()
  var samples: [Double] = []
  samples.reserveCapacity(iterations)
  for _ in 0..<iterations {
    let start = nowNanoseconds()
    body()
    samples.append(Double(nowNanoseconds() - start))
  }
  return median(samples)
}

/// Times `tracker.update(to:)` alone; `next` makes the next view (not timed).
private func measureUpdates(
  _ iterations: Int, _ tracker: inout JSONViewTracker, next: () -> BenchView, patchSize: (Int) -> Void
) throws -> (median: Double, p99: Double) {
  var samples: [Double] = []
  for _ in 0..<iterations {
    let view = next()
    let start = nowNanoseconds()
    let patch = try tracker.update(to: view)
    samples.append(Double(nowNanoseconds() - start))
    patchSize(patch.serialized().count)
  }
  return (median(samples), percentile(samples, 0.99))
}

private func formatBytes(_ count: Int) -> String {
  switch count {
  case ..<10_000: "\(count) B"
  case ..<10_000_000: "\(count / 1_000) kB"
  default: "\(count / 1_000_000) MB"
  }
}
