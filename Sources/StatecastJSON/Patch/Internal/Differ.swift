/// Walks two documents side by side and collects the operations between them (see
/// `JSONPatch.diff(from:to:)` for the rules).
///
/// The view tracker's differ also gets the arrays its encoding pass edited in place:
/// where the old document holds an edit's marker, the old array is the edited one with
/// the edit undone, and when the new document holds the edited array itself only the
/// replaced range is compared (see `ArrayEdit`).
struct Differ {
  private(set) var operations: [JSONPatchOperation] = []
  /// The tokens of the location being compared.
  private var path: [String] = []
  private let edits: [ArrayEdit]

  init(edits: [ArrayEdit] = []) {
    self.edits = edits
  }

  /// Objects with more members than this are matched through a dictionary.
  private static let linearLookupLimit = 24

  mutating func diff(_ old: JSON, _ new: JSON) {
    if old.isIdentical(to: new) { return }
    if !edits.isEmpty, let edit = edit(markedBy: old) {
      if case .array(let newArray) = new, newArray.isIdentical(to: edit.array) {
        diffRanges(edit.removed[...], edit.inserted, start: edit.prefix)
      } else {
        diff(.array(edit.original()), new)
      }
      return
    }
    switch (old, new) {
    case (.object(let oldObject), .object(let newObject)):
      diffObjects(oldObject, newObject)
    case (.array(let oldArray), .array(let newArray)):
      diffArrays(oldArray, newArray)
    default:
      guard old != new else { return }
      // An object member named "-" is replaced with `add` (same RFC 6902 meaning), since
      // some libraries (Python's jsonpatch) refuse `replace` on any path ending in "-".
      operations.append(
        path.last == "-" ? .add(path: pointer(), value: new) : .replace(path: pointer(), value: new))
    }
  }

  private func pointer() -> JSONPointer { JSONPointer(tokens: path) }

  private func pointer(appending token: String) -> JSONPointer { JSONPointer(tokens: path + [token]) }

  private mutating func diff(_ old: JSON, _ new: JSON, at token: String) {
    if old.isIdentical(to: new) { return }
    path.append(token)
    diff(old, new)
    path.removeLast()
  }

  // MARK: - Objects

  private mutating func diffObjects(_ old: JSONObject, _ new: JSONObject) {
    let oldMembers = old.members
    let newMembers = new.members
    // Views encode members in the same order every time: walk both while keys agree.
    var matched = 0
    let shared = min(oldMembers.count, newMembers.count)
    while matched < shared && oldMembers[matched].key == newMembers[matched].key {
      diff(oldMembers[matched].value, newMembers[matched].value, at: oldMembers[matched].key)
      matched += 1
    }
    if matched == oldMembers.count && matched == newMembers.count { return }

    let oldRest = oldMembers[matched...]
    let newRest = newMembers[matched...]
    if oldRest.count + newRest.count <= Self.linearLookupLimit {
      for (key, oldValue) in oldRest {
        if let newValue = newRest.first(where: { $0.key == key })?.value {
          diff(oldValue, newValue, at: key)
        } else {
          operations.append(.remove(path: pointer(appending: key)))
        }
      }
      for (key, newValue) in newRest where !oldRest.contains(where: { $0.key == key }) {
        operations.append(.add(path: pointer(appending: key), value: newValue))
      }
    } else {
      let newIndex = Dictionary(newRest.map { ($0.key, $0.value) }, uniquingKeysWith: { _, last in last })
      var oldKeys = Set<String>(minimumCapacity: oldRest.count)
      for (key, oldValue) in oldRest {
        oldKeys.insert(key)
        if let newValue = newIndex[key] {
          diff(oldValue, newValue, at: key)
        } else {
          operations.append(.remove(path: pointer(appending: key)))
        }
      }
      for (key, newValue) in newRest where !oldKeys.contains(key) {
        operations.append(.add(path: pointer(appending: key), value: newValue))
      }
    }
  }

  // MARK: - Arrays

  /// The lengths of the common prefix and suffix of two arrays, whose elements are the
  /// same storage (what the view tracker reuses) or deeply equal. Runs of reused elements
  /// are bit-for-bit identical and are skipped with `memcmp`; the rest are reached
  /// through pointers so that comparing them retains nothing.
  private func commonEnds(_ old: ArraySlice<JSON>, _ new: ArraySlice<JSON>) -> (prefix: Int, suffix: Int) {
    let edits = edits
    return old.withUnsafeBufferPointer { oldBuffer in
      new.withUnsafeBufferPointer { newBuffer in
        oldBuffer.commonEnds(with: newBuffer) { Self.same(&$0.pointee, &$1.pointee, edits: edits) }
      }
    }
  }

  /// Whether `old` and `new` are the same storage or deeply equal; `inout` only to
  /// borrow them in place, unretained (nothing changes).
  private static func same(_ old: inout JSON, _ new: inout JSON, edits: [ArrayEdit]) -> Bool {
    old.isIdentical(to: new) || (edits.isEmpty ? old == new : isEqual(old, new, edits: edits))
  }

  /// The edit whose marker `value` is, if any.
  private func edit(markedBy value: JSON) -> ArrayEdit? {
    guard case .array(let array) = value, array.count == 1 else { return nil }
    return edits.first { $0.marker.isIdentical(to: array) }
  }

  /// `old == new` where `old` may hold edit markers, which stand for the arrays as they
  /// were before the edit.
  private static func isEqual(_ old: JSON, _ new: JSON, edits: [ArrayEdit]) -> Bool {
    if old.isIdentical(to: new) { return true }
    switch old {
    case .array(let oldArray):
      if oldArray.count == 1, let edit = edits.first(where: { $0.marker.isIdentical(to: oldArray) }) {
        if case .array(let newArray) = new, newArray.isIdentical(to: edit.array) {
          return edit.removed.count == edit.insertedCount
            && zip(edit.removed, edit.inserted).allSatisfy { isEqual($0, $1, edits: edits) }
        }
        return isEqual(.array(edit.original()), new, edits: edits)
      }
      guard case .array(let newArray) = new, oldArray.count == newArray.count else { return false }
      return zip(oldArray, newArray).allSatisfy { isEqual($0, $1, edits: edits) }
    case .object(let oldObject):
      guard case .object(let newObject) = new, oldObject.count == newObject.count else { return false }
      for (key, value) in oldObject.members {
        guard let other = newObject[key], isEqual(value, other, edits: edits) else { return false }
      }
      return true
    default:
      return old == new
    }
  }

  private mutating func diffArrays(_ old: [JSON], _ new: [JSON]) {
    if old.isIdentical(to: new) { return }
    diffRanges(old[...], new[...], start: 0)
  }

  /// Diffs two ranges of elements that sit at `start` in their arrays.
  private mutating func diffRanges(_ old: ArraySlice<JSON>, _ new: ArraySlice<JSON>, start: Int) {
    let (prefix, suffix) = commonEnds(old, new)
    let oldMiddle = old[(old.startIndex + prefix)..<(old.endIndex - suffix)]
    let newMiddle = new[(new.startIndex + prefix)..<(new.endIndex - suffix)]
    let start = start + prefix
    if oldMiddle.isEmpty {
      for (offset, element) in newMiddle.enumerated() {
        operations.append(.add(path: pointer(appending: String(start + offset)), value: element))
      }
    } else if newMiddle.isEmpty {
      for offset in (0..<oldMiddle.count).reversed() {
        operations.append(.remove(path: pointer(appending: String(start + offset))))
      }
    } else if let oldIDs = Self.uniqueIDs(oldMiddle), let newIDs = Self.uniqueIDs(newMiddle) {
      diffByID(oldMiddle, newMiddle, oldIDs: oldIDs, newIDs: newIDs, start: start)
    } else {
      diffByPosition(oldMiddle, newMiddle, start: start)
    }
  }

  private mutating func diffByPosition(_ old: ArraySlice<JSON>, _ new: ArraySlice<JSON>, start: Int) {
    let shared = min(old.count, new.count)
    for offset in 0..<shared {
      diff(old[old.startIndex + offset], new[new.startIndex + offset], at: String(start + offset))
    }
    for offset in shared..<new.count {
      operations.append(
        .add(path: pointer(appending: String(start + offset)), value: new[new.startIndex + offset]))
    }
    for offset in (shared..<old.count).reversed() {
      operations.append(.remove(path: pointer(appending: String(start + offset))))
    }
  }

  /// The `"id"` of every element, if all are objects with one and no two share it.
  private static func uniqueIDs(_ elements: ArraySlice<JSON>) -> [JSON: Int]? {
    var ids: [JSON: Int] = [:]
    ids.reserveCapacity(elements.count)
    for (offset, element) in elements.enumerated() {
      guard case .object(let object) = element, let id = object["id"],
        ids.updateValue(offset, forKey: id) == nil
      else { return nil }
    }
    return ids
  }

  /// Matches elements by `id`. Elements present in both whose old order is a longest
  /// increasing run stay and are diffed in place; every other old element is removed
  /// (highest index first), then every other new element is added at its final index
  /// (lowest first), which keeps all indices valid at the moment each operation runs.
  private mutating func diffByID(
    _ old: ArraySlice<JSON>, _ new: ArraySlice<JSON>, oldIDs: [JSON: Int], newIDs: [JSON: Int], start: Int
  ) {
    // For each new element, its offset in the old middle (or nil if it is new).
    var oldOffsetOfNew = [Int?](repeating: nil, count: new.count)
    for (id, newOffset) in newIDs { oldOffsetOfNew[newOffset] = oldIDs[id] }
    let kept = Self.longestIncreasingRun(oldOffsetOfNew, oldCount: old.count)

    for oldOffset in (0..<old.count).reversed() where !kept[oldOffset] {
      operations.append(.remove(path: pointer(appending: String(start + oldOffset))))
    }
    for newOffset in 0..<new.count {
      let newElement = new[new.startIndex + newOffset]
      if let oldOffset = oldOffsetOfNew[newOffset], kept[oldOffset] {
        diff(old[old.startIndex + oldOffset], newElement, at: String(start + newOffset))
      } else {
        operations.append(.add(path: pointer(appending: String(start + newOffset)), value: newElement))
      }
    }
  }

  /// Marks the old offsets that form a longest strictly increasing subsequence of
  /// `sequence` (ignoring `nil`s): the largest set of elements that keep their order.
  static func longestIncreasingRun(_ sequence: [Int?], oldCount: Int) -> [Bool] {
    // Patience sorting: tails[k] is the position in `sequence` of the smallest tail of an
    // increasing run of length k + 1; predecessors link each position to the one before.
    var tails: [Int] = []
    var predecessors = [Int](repeating: -1, count: sequence.count)
    for (position, value) in sequence.enumerated() {
      guard let value else { continue }
      var low = 0
      var high = tails.count
      while low < high {
        let middle = (low + high) / 2
        if sequence[tails[middle]]! < value { low = middle + 1 } else { high = middle }
      }
      if low > 0 { predecessors[position] = tails[low - 1] }
      if low == tails.count { tails.append(position) } else { tails[low] = position }
    }
    var kept = [Bool](repeating: false, count: oldCount)
    var position = tails.last ?? -1
    while position >= 0 {
      kept[sequence[position]!] = true
      position = predecessors[position]
    }
    return kept
  }
}
