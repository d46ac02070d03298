import Foundation
import Testing

@testable import StatecastJSON

/// The tracker's fast paths for large arrays: rows compared by their bytes before `==`,
/// the tracker's own copy of the rows edited in place, and what happens when a pass
/// fails or the tracker is copied halfway.
@Suite struct JSONViewTrackerEditTests {
  struct Row: Codable, Equatable, Sendable {
    var id: Int
    var title: String
    var done = false
    var score = 0.0
  }

  /// Equatable, so unchanged it is reused whole; changed, its rows are tracked below it.
  struct Section: Codable, Equatable, Sendable {
    var name: String
    var rows: [Row]
  }

  /// Not `Equatable`: rebuilt on every pass, its rows tracked below it, at its index in
  /// an array the diff matches by `id` (so old and new groups may be compared across
  /// positions).
  struct Group: Encodable, Sendable {
    var id: Int
    var rows: [Row]
  }

  struct View: Encodable, Sendable {
    var rows: [Row]
    var sections: [String: Section]
    var pinned: [Row]?
    var groups: [Group] = []
    var broken = false

    enum CodingKeys: String, CodingKey { case rows, sections, pinned, groups, broken }

    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(rows, forKey: .rows)
      try container.encode(sections, forKey: .sections)
      try container.encodeIfPresent(pinned, forKey: .pinned)
      try container.encode(groups, forKey: .groups)
      // A failure after the rows were encoded (and their cache taken apart).
      try container.encode(broken ? Double.nan : 0, forKey: .broken)
    }
  }

  private func row(_ id: Int) -> Row { Row(id: id, title: "row \(id)", done: id % 2 == 0) }

  @Test func patchesReplayToTheFreshEncodingOverManyRandomEdits() throws {
    var generator = SeededGenerator(seed: 7)
    var view = View(
      rows: (0..<300).map(row),
      sections: ["a": Section(name: "a", rows: (0..<40).map(row)), "b": Section(name: "b", rows: [])],
      pinned: nil,
      // Groups start with the same rows, so a group moved onto another's position is
      // edited in place there while the diff matches it with its old self elsewhere.
      groups: (0..<6).map { group in Group(id: group, rows: (0..<30).map(row)) })
    var tracker = JSONViewTracker()
    var mirror = JSON.null
    var copies: [(JSONViewTracker, JSON)] = []
    var nextID = 10_000
    for step in 0..<600 {
      let edits = Int.random(in: 1...3, using: &generator)
      for _ in 0..<edits {
        let count = view.rows.count
        switch Int.random(in: 0..<15, using: &generator) {
        case 0, 1, 2:
          if count > 0 { view.rows[Int.random(in: 0..<count, using: &generator)].done.toggle() }
        case 3:
          if count > 0 { view.rows[Int.random(in: 0..<count, using: &generator)].title += "!" }
        case 4:
          nextID += 1
          view.rows.insert(row(nextID), at: Int.random(in: 0...count, using: &generator))
        case 5:
          if count > 0 { view.rows.remove(at: Int.random(in: 0..<count, using: &generator)) }
        case 6:
          // A run of changed rows, sometimes most of the array.
          if count > 0 {
            let start = Int.random(in: 0..<count, using: &generator)
            let end = Int.random(in: start...count, using: &generator)
            for index in start..<end { view.rows[index].score += 1 }
          }
        case 7:
          // Changed and changed back: a new buffer with the same rows.
          if count > 0 {
            let index = Int.random(in: 0..<count, using: &generator)
            let saved = view.rows[index]
            view.rows[index].title = "temporary"
            view.rows[index] = saved
          }
        case 8:
          let key = Bool.random(using: &generator) ? "a" : "b"
          view.sections[key]!.rows.insert(row(step), at: 0)
        case 9:
          if let index = view.sections["a"]!.rows.indices.randomElement(using: &generator) {
            view.sections["a"]!.rows[index].done.toggle()
          }
        case 10:
          view.pinned = view.pinned == nil ? Array(view.rows.prefix(3)) : nil
        case 11:
          // One row of one group; sometimes the groups also move.
          let group = Int.random(in: 0..<view.groups.count, using: &generator)
          if let index = view.groups[group].rows.indices.randomElement(using: &generator) {
            view.groups[group].rows[index].title += "?"
          }
          if Bool.random(using: &generator) {
            view.groups.swapAt(group, Int.random(in: 0..<view.groups.count, using: &generator))
          }
        case 12:
          let group = Int.random(in: 0..<view.groups.count, using: &generator)
          nextID += 1
          view.groups[group].rows.insert(row(nextID), at: 0)
        case 13:
          if view.groups.count > 2 && Bool.random(using: &generator) {
            view.groups.remove(at: Int.random(in: 0..<view.groups.count, using: &generator))
          } else {
            nextID += 1
            view.groups.insert(
              Group(id: nextID, rows: [row(nextID)]),
              at: Int.random(in: 0...view.groups.count, using: &generator))
          }
        default:
          view.rows.append(
            contentsOf: (0..<Int.random(in: 0..<20, using: &generator)).map { _ in
              nextID += 1
              return row(nextID)
            })
        }
      }
      // Now and then, copy the tracker: both must go on independently.
      if step % 97 == 0 { copies.append((tracker, mirror)) }
      // Now and then, a pass that fails after the rows were encoded.
      if step % 53 == 0 {
        let before = tracker.current
        var failing = view
        failing.broken = true
        #expect(throws: EncodingError.self) { try tracker.update(to: failing) }
        #expect(tracker.current == before, "step \(step)")
      }
      let patch = try tracker.update(to: view)
      mirror = try patch.applied(to: mirror)
      let fresh = try JSONValueEncoder().encode(view)
      #expect(tracker.current == fresh, "step \(step)")
      #expect(mirror == fresh, "step \(step)")
    }
    for (var copy, var copyMirror) in copies {
      #expect(copy.current == copyMirror)
      let patch = try copy.update(to: view)
      copyMirror = try patch.applied(to: copyMirror)
      #expect(copyMirror == (try JSONValueEncoder().encode(view)))
    }
  }

  @Test func theTrackerDoesNotHoldTheAppsRowsAfterAnEdit() throws {
    var tracker = JSONViewTracker()
    var rows = (0..<100).map(row)
    _ = try tracker.update(to: ["rows": rows])
    rows[3].title = "three"  // copied once: the first pass kept the app's buffer
    _ = try tracker.update(to: ["rows": rows])
    for index in [4, 50, 99] {
      let before = rows.withUnsafeBufferPointer { $0.baseAddress }
      rows[index].done.toggle()  // edited in place: the tracker keeps a buffer of its own
      #expect(rows.withUnsafeBufferPointer { $0.baseAddress } == before)
      let patch = try tracker.update(to: ["rows": rows])
      #expect(
        patch == [.replace(path: try JSONPointer("/rows/\(index)/done"), value: .bool(rows[index].done))])
    }
    rows.insert(row(-1), at: 0)
    #expect(
      try tracker.update(to: ["rows": rows]) == [
        .add(path: try JSONPointer("/rows/0"), value: try JSONValueEncoder().encode(row(-1)))
      ])
    #expect(tracker.current == (try JSONValueEncoder().encode(["rows": rows])))
  }

  @Test func aFailedPassAfterAnInPlaceEditKeepsTheDocumentAndRecovers() throws {
    var tracker = JSONViewTracker()
    var view = View(rows: (0..<50).map(row), sections: [:], pinned: nil)
    _ = try tracker.update(to: view)
    view.rows[10].done.toggle()
    _ = try tracker.update(to: view)
    let before = tracker.current
    view.rows[20].title = "twenty"
    view.broken = true
    #expect(throws: EncodingError.self) { try tracker.update(to: view) }
    #expect(tracker.current == before)
    view.broken = false
    let patch = try tracker.update(to: view)
    #expect(patch == [.replace(path: try JSONPointer("/rows/20/title"), value: "twenty")])
  }

  @Test func aGroupMovedOntoAnEditedPositionIsDiffedAgainstItsOldSelf() throws {
    // Three groups with equal rows. Moving A to the end and editing one of its rows:
    // position 2 (C's before) is edited in place into A's rows, while the diff keeps B
    // and C and so compares C's new rows with C's old rows, which the edit replaced.
    var view = View(
      rows: [], sections: [:], pinned: nil, groups: (1...3).map { Group(id: $0, rows: (0..<30).map(row)) })
    var tracker = JSONViewTracker()
    let first = try tracker.update(to: view)
    var mirror = try first.applied(to: .null)
    let a = view.groups.removeFirst()
    view.groups.append(a)
    view.groups[2].rows[5].title = "edited"
    let patch = try tracker.update(to: view)
    mirror = try patch.applied(to: mirror)
    #expect(mirror == (try JSONValueEncoder().encode(view)))
    #expect(tracker.current == mirror)
    // A is moved (one remove, one add); B and C are unchanged.
    #expect(patch.operations.map(\.name) == ["remove", "add"])
  }

  /// Writes its rows at "x", then overwrites "x": the document does not hold the rows'
  /// JSON where their cache sits, so they cannot be edited in place there.
  struct Overwriting: Encodable, Sendable {
    var rows: [Row]
    enum CodingKeys: String, CodingKey { case x }
    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(rows, forKey: .x)
      var nested = container.nestedUnkeyedContainer(forKey: .x)
      try nested.encode(rows.count)
    }
  }

  @Test func rowsWhoseJSONWasOverwrittenAreNotEditedInTheDocument() throws {
    var tracker = JSONViewTracker()
    var view = Overwriting(rows: (0..<20).map(row))
    _ = try tracker.update(to: view)
    for step in 0..<5 {
      view.rows[step].done.toggle()
      if step == 3 { view.rows.append(row(99)) }
      let before = tracker.current
      let patch = try tracker.update(to: view)
      #expect(tracker.current == (try JSONValueEncoder().encode(view)))
      #expect(try patch.applied(to: before) == tracker.current)
    }
    // The pass let go of its nested encoders (and so of its cache): the tracker owns
    // the cache and keeps no reference to the app's rows.
    let address = view.rows.withUnsafeBufferPointer { $0.baseAddress }
    view.rows[0].title = "in place"
    #expect(view.rows.withUnsafeBufferPointer { $0.baseAddress } == address)
  }

  @Test func aSnapshotOfTheDocumentIsNotChangedByLaterUpdates() throws {
    var tracker = JSONViewTracker()
    var view = View(rows: (0..<200).map(row), sections: [:], pinned: nil)
    _ = try tracker.update(to: view)
    view.rows[1].done.toggle()
    _ = try tracker.update(to: view)
    let snapshot = tracker.current
    let snapshotText = snapshot.serialized()
    view.rows[2].done.toggle()
    view.rows.insert(row(-1), at: 0)
    let patch = try tracker.update(to: view)
    #expect(snapshot.serialized() == snapshotText)
    #expect(try patch.applied(to: snapshot) == tracker.current)
    #expect(tracker.current == (try JSONValueEncoder().encode(view)))
  }

  @Test func topLevelAndWrappedArraysReplayOverManyEdits() throws {
    var generator = SeededGenerator(seed: 11)
    var rows = (0..<200).map(row)
    var plain = JSONViewTracker()
    var wrapped = JSONViewTracker()
    var plainMirror = JSON.null
    var wrappedMirror = JSON.null
    for step in 0..<300 {
      switch Int.random(in: 0..<4, using: &generator) {
      case 0: rows.insert(row(1_000 + step), at: Int.random(in: 0...rows.count, using: &generator))
      case 1: if !rows.isEmpty { rows.remove(at: Int.random(in: 0..<rows.count, using: &generator)) }
      default: if !rows.isEmpty { rows[Int.random(in: 0..<rows.count, using: &generator)].score += 0.5 }
      }
      plainMirror = try tracker(&plain, rows, mirror: plainMirror)
      wrappedMirror = try tracker(&wrapped, Optional(rows), mirror: wrappedMirror)
      #expect(plainMirror == (try JSONValueEncoder().encode(rows)), "step \(step)")
      #expect(wrappedMirror == plainMirror, "step \(step)")
    }

    func tracker(_ tracker: inout JSONViewTracker, _ value: some Encodable & Sendable, mirror: JSON) throws
      -> JSON
    {
      let patch = try tracker.update(to: value)
      let applied = try patch.applied(to: mirror)
      #expect(applied == tracker.current)
      return applied
    }
  }

  /// A row whose `==` ignores `note`: equal rows with different bytes.
  struct Loose: Encodable, Equatable {
    var id: Int
    var note: String
    static func == (a: Loose, b: Loose) -> Bool { a.id == b.id }
  }

  @Test func commonEndsUseBytesThenEquality() {
    func ends<T: Equatable>(_ a: [T], _ b: [T]) -> (Int, Int) {
      a.withUnsafeBufferPointer { a in
        b.withUnsafeBufferPointer { b in
          let result = a.commonEnds(with: b) { $0.pointee == $1.pointee }
          return (result.prefix, result.suffix)
        }
      }
    }
    let base = (0..<2_000).map { Loose(id: $0, note: "n\($0)") }
    var edited = base
    edited[700].id = -1
    #expect(ends(base, edited) == (700, 1_299))
    // Different bytes, equal by `==`: still common.
    var renoted = base
    renoted[1_500].note = "other"
    #expect(ends(base, renoted) == (2_000, 0))
    // Insert and remove at either end, across several 4 kB runs.
    #expect(ends(base, [Loose(id: -5, note: "")] + base) == (0, 2_000))
    #expect(ends(base, base + [Loose(id: -5, note: "")]) == (2_000, 0))
    #expect(ends(base, Array(base.dropFirst())) == (0, 1_999))
    #expect(ends([Loose](), base) == (0, 0))
    // Built apart (heap strings at other addresses): equal by `==` only, throughout.
    let long = (0..<2_000).map { Loose(id: $0, note: "a note long enough for the heap \($0)") }
    var rebuilt = (0..<2_000).map { Loose(id: $0, note: "a note long enough for the heap \($0)") }
    #expect(ends(long, rebuilt) == (2_000, 0))
    rebuilt[1_234].id = -1
    #expect(ends(long, rebuilt) == (1_234, 765))
    rebuilt.insert(Loose(id: -2, note: ""), at: 0)
    #expect(ends(long, rebuilt) == (0, 765))
    // Bytes identical but `==` false (NaN): identical bytes count as unchanged.
    let nan = [Double.nan, 1, 2]
    #expect(ends(nan, nan.map { $0 }) == (3, 0))
    #expect(ends([1.0, 2, 3], [1.0, 9, 3]) == (1, 1))
  }
}
