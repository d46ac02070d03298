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
/// The elements the cache compares with are kept in a buffer of the tracker's own, not
/// the app's array: when this pass owns the old cache node, the old buffer is edited
/// into a copy of the new array (the changed range only) rather than replaced by it.
/// The app's array is then referenced by nobody else once the update returns, so the
/// app's next action edits it in place instead of copying it (a retain per row), and
/// the tracker does not free the old buffer (a release per row).
protocol CacheableArray {
  /// Encodes the array whose position `encoder` stands for, reusing what `old` holds;
  /// `ownsOld` says that nothing else refers to `old`, which may then be taken apart.
  func encodeCached(in encoder: ValueEncoder, old: CacheNode?, ownsOld: Bool) throws -> CacheNode
}

extension Array: CacheableArray where Element: Encodable & Equatable {
  func encodeCached(in encoder: ValueEncoder, old: CacheNode?, ownsOld: Bool) throws -> CacheNode {
    guard let old, var oldArray = old.value as? [Element], case .array(let oldJSON) = old.json,
      oldJSON.count == oldArray.count
    else {
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

    var elements: [JSON] = []
    elements.reserveCapacity(count)
    elements.append(contentsOf: oldJSON[0..<prefix])
    let oldMiddleEnd = oldArray.count - suffix
    for index in prefix..<(count - suffix) {
      // Same offset in the old array: an in-place edit keeps the other elements' JSON.
      if index < oldMiddleEnd && Self.isUnchanged(self, oldArray, at: index) {
        elements.append(oldJSON[index])
      } else {
        elements.append(try encoder.encodeFresh(self[index], at: .index(index)))
      }
    }
    elements.append(contentsOf: oldJSON[oldMiddleEnd...])

    // Keep the old buffer, brought up to date, unless most of it changed anyway.
    let middle = prefix..<(count - suffix)
    guard ownsOld && middle.count * 2 <= count else { return CacheNode(value: self, json: .array(elements)) }
    old.value = nil
    oldArray.replaceSubrange(prefix..<oldMiddleEnd, with: self[middle])
    return CacheNode(value: oldArray, json: .array(elements))
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
private func isEqualInPlace<T: Equatable>(_ a: UnsafeMutablePointer<T>, _ b: UnsafeMutablePointer<T>) -> Bool {
  equalInPlace(&a.pointee, &b.pointee)
}

/// `a == b` for values reached through pointers, without copying them (see
/// `isEqualInPlace`). Neither value is modified.
private func equalInPlace<T: Equatable>(_ a: inout T, _ b: inout T) -> Bool {
  a == b
}
