import Foundation
import Testing

@testable import StatecastJSON

/// Writes patches made by this module for the Python cross-check in `Tests/Interop`.
///
/// Only runs when `STATECAST_INTEROP_CORPUS` names a file to write: a JSON array of
/// `{"name", "old", "new", "patch"}` cases, where `patch` is `diff(old, new)` (random
/// pairs and edits) or a `JSONViewTracker` update (a view evolving step by step). Python's
/// `jsonpatch` must turn each `old` into `new` with `patch`.
@Suite struct InteropCorpusTests {
  static let corpusPath = ProcessInfo.processInfo.environment["STATECAST_INTEROP_CORPUS"]

  struct Row: Encodable, Equatable, Sendable {
    var id: Int
    var title: String
    var done: Bool
  }

  struct View: Encodable, Sendable {
    var title: String
    var rows: [Row]
  }

  @Test(.enabled(if: corpusPath != nil)) func writeCorpus() throws {
    var cases: [JSON] = []
    func add(_ name: String, _ old: JSON, _ new: JSON, _ patch: JSONPatch) {
      cases.append(["name": .string(name), "old": old, "new": new, "patch": patch.json])
    }

    var documents = RandomDocuments(seed: 6902)
    for index in 0..<3_000 {
      let (old, new) = documents.pair()
      add("random \(index)", old, new, JSONPatch.diff(from: old, to: new))
    }

    var generator = SeededGenerator(seed: 6901)
    var tracker = JSONViewTracker()
    var view = View(title: "Todos", rows: (0..<40).map { Row(id: $0, title: "row \($0)", done: false) })
    var previous = JSON.null
    for step in 0..<300 {
      switch Int.random(in: 0..<5, using: &generator) {
      case 0:
        view.rows.insert(
          Row(id: 100 + step, title: "new/\(step)", done: false),
          at: Int.random(in: 0...view.rows.count, using: &generator))
      case 1:
        if !view.rows.isEmpty { view.rows.remove(at: Int.random(in: 0..<view.rows.count, using: &generator)) }
      case 2:
        if view.rows.count > 1 {
          let row = view.rows.remove(at: Int.random(in: 0..<view.rows.count, using: &generator))
          view.rows.insert(row, at: Int.random(in: 0...view.rows.count, using: &generator))
        }
      case 3: view.title = "Todos ~\(step)"
      default:
        if !view.rows.isEmpty {
          view.rows[Int.random(in: 0..<view.rows.count, using: &generator)].done.toggle()
        }
      }
      let patch = try tracker.update(to: view)
      add("tracker step \(step)", previous, tracker.current, patch)
      previous = tracker.current
    }

    let url = URL(fileURLWithPath: try #require(Self.corpusPath))
    try Data(JSON.array(cases).serialized()).write(to: url)
  }
}
