import Foundation

/// Arrays of `Equatable` elements, which the view tracker diffs element by element
/// against the array it encoded last time, so that only changed elements are encoded.
///
/// The comparison is typed (no per-element casts or boxes): the common prefix and
/// suffix of unchanged elements reuse their old JSON, and in between each element is
/// compared with the old one at the same offset. An element is unchanged if its bytes
/// are those of the old one (what a copy-on-write copy of the array holds for every row
/// the action did not touch; see `UnsafeBufferPointer.commonEnds`) or else if `==` says
/// so. One changed row in 10,000 costs a `memcmp` of the two buffers, one `==` and one
/// row's encoding; one row inserted at the top costs the same.
///
/// When this pass owns the old cache node and few elements changed, nothing is copied:
/// - the elements the cache compares with are the tracker's own buffer, edited into a
///   copy of the new array (the changed range only) rather than replaced by the app's
///   array, which is then held by nobody else once the update returns, so the app's
///   next action edits it in place instead of copying it (a retain per row), and the
///   tracker frees no old buffer (a release per row);
/// - the JSON array is taken out of the previous document and edited in place, and the
///   edit is recorded for the diff (see `ArrayEdit`).
/// Otherwise (a shared cache, most elements changed) the new array and a new JSON
/// array are kept, sharing the unchanged elements' JSON.
protocol CacheableArray {
  /// Encodes the array whose position `encoder` stands for, reusing what `old` holds;
  /// `ownsOld` says that nothing else refers to `old`, which may then be taken apart.
  func encodeCached(in encoder: ValueEncoder, old: CacheNode?, ownsOld: Bool) throws -> CacheNode
}

extension Array: CacheableArray where Element: Encodable & Equatable {
  func encodeCached(in encoder: ValueEncoder, old: CacheNode?, ownsOld: Bool) throws -> CacheNode {
    guard let old, var oldArray = old.value as? [Element], old.json.arrayValueCount == oldArray.count else {
      var elements: [JSON] = []
      elements.reserveCapacity(count)
      for index in indices {
        elements.append(try encoder.encodeFresh(self[index], at: .index(index)))
      }
      return CacheNode(value: self, json: .array(elements))
    }
    if isIdentical(to: oldArray) { return old }
    let (prefix, suffix) = withUnsafeBufferPointer { new in
      oldArray.withUnsafeBufferPointer { old in new.commonEnds(with: old, areEqual: isEqualInPlace) }
    }
    if prefix == count && count == oldArray.count { return old }

    // The changed range, encoded first (this may throw); an element unchanged at the
    // same offset keeps its JSON, so an in-place edit of a few rows encodes only those.
    let oldMiddle = prefix..<(oldArray.count - suffix)
    let middle = prefix..<(count - suffix)
    var middleJSON: [JSON] = []
    middleJSON.reserveCapacity(middle.count)
    for index in middle {
      if index < oldMiddle.upperBound && Self.isUnchanged(self, oldArray, at: index),
        let reused = old.json[index]
      {
        middleJSON.append(reused)
      } else {
        middleJSON.append(try encoder.encodeFresh(self[index], at: .index(index)))
      }
    }

    // A small change to a cache this pass owns: edit the old JSON array and the old
    // elements in place (see `ArrayEdit` and the type's comment) rather than copy them.
    let editsInPlace = ownsOld && middle.count * 2 <= count
    let json: JSON
    if editsInPlace,
      let edited = encoder.context.editArray(
        of: old, at: encoder.documentPath, replacing: oldMiddle, with: middleJSON)
    {
      json = .array(edited)
    } else {
      guard case .array(let oldJSON) = old.json else { preconditionFailure("checked above") }
      var elements: [JSON] = []
      elements.reserveCapacity(count)
      elements.append(contentsOf: oldJSON[0..<prefix])
      elements.append(contentsOf: middleJSON)
      elements.append(contentsOf: oldJSON[oldMiddle.upperBound...])
      json = .array(elements)
    }
    guard editsInPlace else { return CacheNode(value: self, json: json) }
    old.value = nil
    oldArray.replaceSubrange(oldMiddle, with: self[middle])
    return CacheNode(value: oldArray, json: json)
  }

  /// Whether `new[index]` is the same as `old[index]`: the same bytes or `==`.
  private static func isUnchanged(_ new: [Element], _ old: [Element], at index: Int) -> Bool {
    new.withUnsafeBufferPointer { new in
      old.withUnsafeBufferPointer { old in
        let a = UnsafeMutablePointer(mutating: new.baseAddress! + index)
        let b = UnsafeMutablePointer(mutating: old.baseAddress! + index)
        return memcmp(a, b, MemoryLayout<Element>.size) == 0 || isEqualInPlace(a, b)
      }
    }
  }
}

/// `a.pointee == b.pointee` without copying the elements out.
///
/// This code runs unspecialized (the element type is the app's), where reading
/// `pointer.pointee` to pass it to `==` would copy the element, retaining its strings;
/// passing `inout` hands `==` the element's address instead. Neither value is modified.
private func isEqualInPlace<T: Equatable>(_ a: UnsafeMutablePointer<T>, _ b: UnsafeMutablePointer<T>) -> Bool
{
  equalInPlace(&a.pointee, &b.pointee)
}

/// `a == b` for values reached through pointers, without copying them (see
/// `isEqualInPlace`). Neither value is modified.
private func equalInPlace<T: Equatable>(_ a: inout T, _ b: inout T) -> Bool {
  a == b
}
