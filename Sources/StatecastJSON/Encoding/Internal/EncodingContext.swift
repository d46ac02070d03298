/// What every encoder of one encoding pass shares: `userInfo`, whether the pass consults
/// and fills a ``CacheNode`` tree (see ``JSONViewTracker``), and the tracker's previous
/// document when the pass may edit its arrays in place (see `ArrayEdit`).
final class EncodingContext {
  let userInfo: [CodingUserInfoKey: Any]
  let isTracking: Bool
  /// The previous document, held here alone during a pass that owns its cache, so that
  /// cached arrays can be taken out of it and edited in place; `nil` otherwise.
  var document: JSON?
  /// The arrays taken out of `document` and edited, in order.
  var edits: [ArrayEdit] = []

  init(userInfo: [CodingUserInfoKey: any Sendable], isTracking: Bool) {
    self.userInfo = userInfo
    self.isTracking = isTracking
  }

  /// Takes the JSON array of `node` (a cache node this pass owns) out of `document`,
  /// where it sits at `path`, leaving a marker; replaces `range` with `elements` in
  /// place and records the edit. Returns the edited array, or `nil` and changes nothing
  /// when `document` does not hold that very storage at `path`.
  ///
  /// The storage is compared while `node` still holds it (so an address cannot have
  /// been reused), then `node` lets go of it, so that the array is held by nobody else
  /// when it is edited, unless some copy of the old document is still around (then it
  /// is copied, as any shared array would be).
  func editArray(
    of node: CacheNode, at path: [CachePosition], replacing range: Range<Int>, with elements: [JSON]
  ) -> [JSON]? {
    guard document != nil, let address = node.json.arrayStorageAddress else { return nil }
    let marker: [JSON] = [.null]
    guard var taken = document!.exchange(at: path[...], with: .array(marker)) else { return nil }
    guard taken.arrayStorageAddress == address, case .array(var array) = taken else {
      _ = document!.exchange(at: path[...], with: taken)
      return nil
    }
    taken = .null
    node.json = .null
    let removed = Array(array[range])
    array.replaceSubrange(range, with: elements)
    edits.append(
      ArrayEdit(
        path: path, marker: marker, prefix: range.lowerBound, removed: removed, insertedCount: elements.count,
        array: array))
    return array
  }

  /// Puts every edited array back into `document` as it was, latest first: what a
  /// failed pass does before the tracker keeps its previous document.
  func undoEdits() {
    while let edit = edits.popLast() {
      _ = document?.exchange(at: edit.path[...], with: .array(edit.original()))
    }
  }
}
