/// A cached array's JSON that an encoding pass edited in place, and what it replaced:
/// the record that lets the diff and a failed pass see the array as it was.
///
/// Why it exists: re-creating the JSON array of a 10,000-row view to change one row
/// retains every row's JSON, and freeing the old array releases them all again. When
/// the tracker's old document and cache are the only holders of the array, the pass
/// instead takes the array out of the old document (leaving `marker` in its place),
/// replaces the changed range in the same buffer, and records the elements it removed.
/// The diff then meets `marker` in the old document and `array` in the new one and only
/// compares `removed` with the inserted range, in O(changed elements).
///
/// ```
/// old document  {"rows": <marker>}        edit: prefix 7, removed [row 7 before]
/// new document  {"rows": [r0 … r7' … r9999]}       inserted 1, array = that buffer
/// ```
struct ArrayEdit {
  /// Where the array sits in both documents.
  let path: [CachePosition]
  /// The one-element array left in the old document at `path`, found again by its
  /// storage identity (never by its contents).
  let marker: [JSON]
  /// Elements kept at the start.
  let prefix: Int
  /// The old elements that were replaced, from `prefix` on.
  let removed: [JSON]
  /// How many elements replaced them.
  let insertedCount: Int
  /// The edited array, as it is in the new document.
  let array: [JSON]

  /// The inserted range of `array`.
  var inserted: ArraySlice<JSON> { array[prefix..<(prefix + insertedCount)] }

  /// The array as it was before the edit (a copy: a retain per element).
  func original() -> [JSON] {
    var elements = array
    elements.replaceSubrange(prefix..<(prefix + insertedCount), with: removed)
    return elements
  }
}
