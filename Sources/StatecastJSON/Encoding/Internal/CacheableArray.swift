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

    let shared = Swift.min(count, oldArray.count)
    var prefix = 0
    while prefix < shared && self[prefix] == oldArray[prefix] { prefix += 1 }
    if prefix == count && count == oldArray.count { return old }
    var suffix = 0
    while suffix < shared - prefix && self[count - 1 - suffix] == oldArray[oldArray.count - 1 - suffix] {
      suffix += 1
    }

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
}
