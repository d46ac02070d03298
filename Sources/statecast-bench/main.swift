import Foundation

/// `statecast-bench [--quick] [section ...]`: runs the named sections (all when none is
/// named) and prints one table per section. Build with `-c release`; `--quick` only
/// proves that every section still runs (see ``isQuickRun``).
///
/// Each section lives in its own file and registers itself here by name.
let sections: [(name: String, run: () async throws -> Void)] = [
  ("transport", runTransportBenchmarks),
  ("server", runServerBenchmarks),
  ("store", runStoreBenchmarks),
  ("json", runJSONBenchmarks),
  ("examples", runExamplesBenchmarks),
  ("rooms", runRoomBenchmarks),
  ("storage", runStorageBenchmarks),
  ("durable", runDurableBenchmarks),
  ("connections", runConnectionBenchmarks),
  ("cluster", runClusterBenchmarks),
  ("uploads", runUploadBenchmarks),
  ("lists", runListBenchmarks),
  ("pages", runPageBenchmarks),
]

let requested = Set(CommandLine.arguments.dropFirst().filter { $0 != "--quick" })
let unknown = requested.subtracting(sections.map(\.name))
if !unknown.isEmpty {
  print(
    "unknown section(s): \(unknown.sorted().joined(separator: ", ")); known: \(sections.map(\.name).joined(separator: ", "))"
  )
  exit(2)
}
for section in sections where requested.isEmpty || requested.contains(section.name) {
  try await section.run()
}
