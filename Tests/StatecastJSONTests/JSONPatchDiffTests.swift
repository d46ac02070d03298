import Testing

@testable import StatecastJSON

@Suite struct JSONPatchDiffTests {
  private func rows(_ count: Int) -> JSON {
    .array((0..<count).map { ["id": .int(Int64($0)), "title": .string("row \($0)"), "done": false] })
  }

  private func ops(_ patch: JSONPatch) -> [String] {
    patch.operations.map { "\($0.name) \($0.path)" }
  }

  @Test func oneChangedFieldIsOneReplace() throws {
    let old: JSON = ["rows": rows(10_000), "title": "Todos"]
    var new = old
    new = try JSONPatch([.replace(path: JSONPointer("/rows/4321/done"), value: true)]).applied(to: new)
    let patch = JSONPatch.diff(from: old, to: new)
    #expect(patch == [.replace(path: try JSONPointer("/rows/4321/done"), value: true)])
  }

  @Test func oneInsertedRowAtTheTopIsOneAdd() throws {
    guard case .array(var list) = rows(10_000) else { return }
    let old = JSON.array(list)
    list.insert(["id": -1, "title": "new"], at: 0)
    let patch = JSONPatch.diff(from: old, to: .array(list))
    #expect(ops(patch) == ["add /0"])
    #expect(try patch.applied(to: old) == .array(list))
  }

  @Test func removedRowIsOneRemove() throws {
    guard case .array(var list) = rows(1_000) else { return }
    let old = JSON.array(list)
    list.remove(at: 500)
    #expect(ops(JSONPatch.diff(from: old, to: .array(list))) == ["remove /500"])
  }

  @Test func movedRowIsOneRemoveAndOneAdd() throws {
    guard case .array(var list) = rows(1_000) else { return }
    let old = JSON.array(list)
    let moved = list.remove(at: 0)
    list.append(moved)
    let patch = JSONPatch.diff(from: old, to: .array(list))
    #expect(ops(patch) == ["remove /0", "add /999"])
    #expect(try patch.applied(to: old) == .array(list))

    // A row moved up, another edited, one added and one removed, all in one patch.
    guard case .array(var shuffled) = rows(10) else { return }
    let before = JSON.array(shuffled)
    shuffled.swapAt(2, 7)
    shuffled[4] = ["id": 4, "title": "edited", "done": true]
    shuffled.remove(at: 8)
    shuffled.insert(["id": 99, "title": "new", "done": false], at: 5)
    let mixed = JSONPatch.diff(from: before, to: .array(shuffled))
    #expect(try mixed.applied(to: before) == .array(shuffled))
    // Two swapped rows move (2 removes, 2 adds), one row goes, one comes, one changes two fields.
    #expect(mixed.operations.count == 8)
  }

  @Test func reversedRowsStayLinear() throws {
    guard case .array(let list) = rows(2_000) else { return }
    let patch = JSONPatch.diff(from: .array(list), to: .array(list.reversed()))
    #expect(try patch.applied(to: .array(list)) == .array(list.reversed()))
    #expect(patch.operations.count == 2 * 1_999)
  }

  @Test func arraysWithoutIDsSkipCommonPrefixAndSuffix() throws {
    #expect(ops(JSONPatch.diff(from: [1, 2, 3, 4], to: [1, 2, 9, 3, 4])) == ["add /2"])
    #expect(ops(JSONPatch.diff(from: [1, 2, 3, 4], to: [1, 4])) == ["remove /2", "remove /1"])
    #expect(ops(JSONPatch.diff(from: [1, 2, 3], to: [1, 5, 3])) == ["replace /1"])
    #expect(ops(JSONPatch.diff(from: [[1], [2]], to: [[1], [2, 3]])) == ["add /1/1"])
    // Rows whose ids repeat are compared by position, still correctly.
    let old: JSON = [["id": 1, "v": 1], ["id": 1, "v": 2]]
    let new: JSON = [["id": 1, "v": 2], ["id": 1, "v": 1]]
    #expect(try JSONPatch.diff(from: old, to: new).applied(to: old) == new)
  }

  @Test func objectsAndEscapedKeys() throws {
    let old: JSON = ["a/b": 1, "m~n": [1], "same": "x", "gone": true]
    let new: JSON = ["m~n": [1, 2], "a/b": 2, "same": "x", "new key": .null]
    let patch = JSONPatch.diff(from: old, to: new)
    #expect(Set(ops(patch)) == ["replace /a~1b", "add /m~0n/1", "remove /gone", "add /new key"])
    #expect(try patch.applied(to: old) == new)
  }

  @Test func replacesAcrossTypesAndTheRoot() throws {
    #expect(
      JSONPatch.diff(from: ["a": 1], to: ["a": [1]]) == [.replace(path: try JSONPointer("/a"), value: [1])])
    #expect(JSONPatch.diff(from: .null, to: ["a": 1]) == [.replace(path: .root, value: ["a": 1])])
    #expect(JSONPatch.diff(from: ["n": 1], to: ["n": 1.0]).isEmpty)
    #expect(
      JSONPatch.diff(from: ["b": true], to: ["b": 1]) == [.replace(path: try JSONPointer("/b"), value: 1)])
  }

  @Test func largeObjectsUseAnIndex() throws {
    let old = JSON.object(JSONObject(uniqueKeysWithValues: (0..<500).map { ("k\($0)", JSON.int(Int64($0))) }))
    let new = JSON.object(
      JSONObject(
        uniqueKeysWithValues: (0..<500).reversed().map { ("k\($0)", JSON.int($0 == 7 ? -7 : Int64($0))) }))
    #expect(JSONPatch.diff(from: old, to: new) == [.replace(path: try JSONPointer("/k7"), value: -7)])
  }

  @Test func applyingTheDiffGivesTheTargetForThousandsOfRandomPairs() throws {
    var documents = RandomDocuments(seed: 2024)
    for iteration in 0..<5_000 {
      let (old, new) = documents.pair()
      let patch = JSONPatch.diff(from: old, to: new)
      let applied = try patch.applied(to: old)
      #expect(applied == new, "pair \(iteration): \(old) -> \(new) via \(patch)")
      #expect(JSONPatch.diff(from: old, to: old).isEmpty)
      #expect(JSONPatch.diff(from: new, to: try JSON(parsing: new.serialized())).isEmpty)
      // The wire form reads back as the same patch.
      #expect(try JSONPatch(json: JSON(parsing: patch.serialized())) == patch)
    }
  }
}
