/// Arrays of `Equatable` elements, which the view tracker diffs element by element
/// against the array it encoded last time, so that only changed elements are encoded.
///
/// The comparison is typed (no per-element casts or boxes): the common prefix and
/// suffix of equal elements reuse their old JSON, and in between each element is
/// compared with the old one at the same offset. One changed row in 10,000 costs 10,000
/// `==` and one row's encoding; one row inserted at the top costs the same.
protocol CacheableArray {
  /// Encodes the array whose position `encoder` stands for, reusing what `old` holds.
  func encodeCached(in encoder: ValueEncoder, old: CacheNode?) throws -> CacheNode
}

extension Array: CacheableArray where Element: Encodable & Equatable {
  func encodeCached(in encoder: ValueEncoder, old: CacheNode?) throws -> CacheNode {
    guard let old, let oldArray = old.value as? [Element], case .array(let oldJSON) = old.json,
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
      oldArray.withUnsafeBufferPointer { old in Self.commonEnds(new, old) }
    }
    if prefix == count && count == oldArray.count { return old }

    var elements: [JSON] = []
    elements.reserveCapacity(count)
    elements.append(contentsOf: oldJSON[0..<prefix])
    let oldMiddleEnd = oldArray.count - suffix
    for index in prefix..<(count - suffix) {
      // Same offset in the old array: an in-place edit keeps the other elements' JSON.
      if index < oldMiddleEnd && self[index] == oldArray[index] {
        elements.append(oldJSON[index])
      } else {
        elements.append(try encoder.encodeFresh(self[index], at: .index(index)))
      }
    }
    elements.append(contentsOf: oldJSON[oldMiddleEnd...])
    return CacheNode(value: self, json: .array(elements))
  }

  /// The common prefix and suffix lengths, comparing elements in place.
  ///
  /// This code runs unspecialized (the element type is the app's), where reading
  /// `buffer[i]` to pass it to `==` would copy the element, retaining its strings; passing
  /// `inout` through a pointer hands `==` the element's address instead.
  private static func commonEnds(
    _ a: UnsafeBufferPointer<Element>, _ b: UnsafeBufferPointer<Element>
  ) -> (prefix: Int, suffix: Int) {
    guard let baseA = a.baseAddress, let baseB = b.baseAddress else { return (0, 0) }
    let first = UnsafeMutablePointer(mutating: baseA)
    let second = UnsafeMutablePointer(mutating: baseB)
    let shared = Swift.min(a.count, b.count)
    var prefix = 0
    while prefix < shared && isEqualInPlace(&first[prefix], &second[prefix]) { prefix += 1 }
    let limit = shared - prefix
    let lastA = first + (a.count - 1)
    let lastB = second + (b.count - 1)
    var suffix = 0
    while suffix < limit && isEqualInPlace(&(lastA - suffix).pointee, &(lastB - suffix).pointee) { suffix += 1 }
    return (prefix, suffix)
  }
}

/// `a == b` for values reached through pointers, without copying them (see
/// `Array.commonEnds`). Neither value is modified.
private func isEqualInPlace<T: Equatable>(_ a: inout T, _ b: inout T) -> Bool {
  a == b
}
