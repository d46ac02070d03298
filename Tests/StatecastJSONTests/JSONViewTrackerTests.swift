import Foundation
import Testing

@testable import StatecastJSON

@Suite struct JSONViewTrackerTests {
  struct Row: Codable, Equatable, Sendable {
    var id: Int
    var title: String
    var done = false
    var tags: [String] = []
  }

  struct Header: Codable, Equatable, Sendable {
    var title: String
    var count: Int
  }

  /// A view that is not `Equatable` itself but holds cacheable parts.
  struct View: Encodable, Sendable {
    var header: Header
    var rows: [Row]
    var byKey: [String: Row] = [:]
    var selected: Row? = nil
    var note: String? = nil
  }

  /// Rows that are not `Equatable`: always re-encoded, still correct.
  struct PlainRow: Encodable, Sendable {
    var id: Int
    var value: Double
  }

  private func view(rows count: Int) -> View {
    View(
      header: Header(title: "Todos", count: count), rows: (0..<count).map { Row(id: $0, title: "row \($0)") })
  }

  @Test func firstUpdateReplacesTheWholeDocument() throws {
    var tracker = JSONViewTracker()
    let value = view(rows: 2)
    let patch = try tracker.update(to: value)
    let expected = try JSONValueEncoder().encode(value)
    #expect(patch == [.replace(path: .root, value: expected)])
    #expect(tracker.current == expected)
    #expect(try tracker.update(to: value).isEmpty)
  }

  @Test func oneChangedRowIsOneOperationAndOtherRowsAreReused() throws {
    var tracker = JSONViewTracker()
    var value = view(rows: 1_000)
    _ = try tracker.update(to: value)
    let before = tracker.current
    value.rows[500].done = true
    let patch = try tracker.update(to: value)
    #expect(patch == [.replace(path: try JSONPointer("/rows/500/done"), value: true)])
    #expect(tracker.current == (try JSONValueEncoder().encode(value)))
    // Unchanged rows are the very same JSON storage as before.
    guard case .array(let oldRows)? = before["rows"], case .array(let newRows)? = tracker.current["rows"]
    else {
      Issue.record("rows missing")
      return
    }
    #expect(oldRows[499].isIdentical(to: newRows[499]))
    #expect(oldRows[501].isIdentical(to: newRows[501]))
    #expect(!oldRows[500].isIdentical(to: newRows[500]))
    #expect(before["header"]!.isIdentical(to: tracker.current["header"]!))
  }

  @Test func insertedRowAtTheTopReusesTheRest() throws {
    var tracker = JSONViewTracker()
    var value = view(rows: 100)
    _ = try tracker.update(to: value)
    let before = tracker.current["rows"]!.arrayValue!
    value.rows.insert(Row(id: -1, title: "first"), at: 0)
    value.header.count = 101
    let patch = try tracker.update(to: value)
    #expect(patch.operations.map(\.name).sorted() == ["add", "replace"])
    #expect(tracker.current["rows"]!.arrayValue![1].isIdentical(to: before[0]))
  }

  @Test func patchesReplayToTheFreshEncodingAtEveryStep() throws {
    var generator = SeededGenerator(seed: 99)
    var tracker = JSONViewTracker()
    var mirror = JSON.null
    var value = view(rows: 30)
    for step in 0..<400 {
      switch Int.random(in: 0..<9, using: &generator) {
      case 0:
        value.rows.insert(
          Row(id: 1_000 + step, title: "new \(step)"),
          at: Int.random(in: 0...value.rows.count, using: &generator))
      case 1:
        if !value.rows.isEmpty {
          value.rows.remove(at: Int.random(in: 0..<value.rows.count, using: &generator))
        }
      case 2:
        if value.rows.count > 1 {
          let row = value.rows.remove(at: Int.random(in: 0..<value.rows.count, using: &generator))
          value.rows.insert(row, at: Int.random(in: 0...value.rows.count, using: &generator))
        }
      case 3: value.header.count += 1
      case 4:
        value.byKey["k\(Int.random(in: 0..<5, using: &generator))"] = value.rows.randomElement(
          using: &generator)
      case 5: value.selected = value.selected == nil ? value.rows.first : nil
      case 6: value.note = value.note == nil ? "note \(step)" : nil
      case 7: value.rows.shuffle(using: &generator)
      default:
        if !value.rows.isEmpty {
          let index = Int.random(in: 0..<value.rows.count, using: &generator)
          value.rows[index].tags.append("t\(step)")
          value.rows[index].title += "!"
        }
      }
      let patch = try tracker.update(to: value)
      mirror = try patch.applied(to: mirror)
      let fresh = try JSONValueEncoder().encode(value)
      #expect(tracker.current == fresh, "step \(step)")
      #expect(mirror == fresh, "step \(step)")
    }
  }

  @Test func nonEquatableRowsAreEncodedAfreshAndStillDiffed() throws {
    var tracker = JSONViewTracker()
    var rows = (0..<10).map { PlainRow(id: $0, value: Double($0)) }
    _ = try tracker.update(to: ["rows": rows])
    rows[3].value = 0.5
    #expect(
      try tracker.update(to: ["rows": rows]) == [.replace(path: try JSONPointer("/rows/3/value"), value: 0.5)]
    )
  }

  @Test func failedUpdateLeavesTheTrackerAsItWas() throws {
    var tracker = JSONViewTracker()
    _ = try tracker.update(to: [PlainRow(id: 1, value: 1)])
    let before = tracker.current
    #expect(throws: EncodingError.self) { try tracker.update(to: [PlainRow(id: 1, value: .nan)]) }
    #expect(tracker.current == before)
    #expect(
      try tracker.update(to: [PlainRow(id: 1, value: 2)]) == [
        .replace(path: try JSONPointer("/0/value"), value: 2)
      ])
  }

  @Test func copiesAreIndependent() throws {
    var first = JSONViewTracker()
    _ = try first.update(to: view(rows: 3))
    var second = first
    var changed = view(rows: 3)
    changed.rows[0].title = "changed"
    _ = try second.update(to: changed)
    #expect(first.current["rows"]?[0]?["title"] == "row 0")
    #expect(try first.update(to: view(rows: 3)).isEmpty)
    first.reset()
    #expect(first.current == .null)
  }

  @Test func topLevelArraysAndWrappedValuesAreCached() throws {
    var tracker = JSONViewTracker()
    var rows = (0..<50).map { Row(id: $0, title: "\($0)") }
    _ = try tracker.update(to: rows)
    rows[10].title = "ten"
    #expect(try tracker.update(to: rows) == [.replace(path: try JSONPointer("/10/title"), value: "ten")])
    var optional: [Row]? = rows
    var wrapped = JSONViewTracker()
    _ = try wrapped.update(to: optional)
    optional![20].done = true
    #expect(try wrapped.update(to: optional) == [.replace(path: try JSONPointer("/20/done"), value: true)])
  }
}
