import Foundation

extension UnsafeBufferPointer {
  /// The lengths of the common prefix and suffix of two buffers, where two elements are
  /// the same if their bytes are identical or `areEqual` says so.
  ///
  /// Why bytes first: the view tracker compares the rows of a view with the rows it
  /// encoded last time, and after an action the app's array is a copy-on-write copy of
  /// the old one, so every unchanged row is a bit-for-bit copy (same integers, same
  /// string storage). Comparing 4 kB runs with `memcmp` settles 10,000 such rows in a few
  /// microseconds, where calling the app's `==` through its witness costs far more. A run
  /// whose bytes differ is settled element by element, each one by its bytes or else
  /// by `areEqual`, so a mismatch in padding only costs the slow path, never a wrong
  /// answer (and buffers that share nothing soon stop being compared by bytes).
  ///
  /// Identical bytes are a sound test of "unchanged" for the tracker because both
  /// buffers are alive while they are compared: equal bytes are the same integers, the
  /// same references to the same live objects, hence the same value and the same JSON.
  ///
  /// `areEqual` receives pointers so that the element is not copied (retained) to be
  /// compared; it must not modify what they point to.
  func commonEnds(
    with other: UnsafeBufferPointer<Element>,
    areEqual: (UnsafeMutablePointer<Element>, UnsafeMutablePointer<Element>) -> Bool
  ) -> (prefix: Int, suffix: Int) {
    guard let baseA = baseAddress, let baseB = other.baseAddress else { return (0, 0) }
    let shared = Swift.min(count, other.count)
    if baseA == baseB { return (shared, 0) }
    let a = UnsafeMutablePointer(mutating: baseA)
    let b = UnsafeMutablePointer(mutating: baseB)
    let stride = MemoryLayout<Element>.stride
    let size = MemoryLayout<Element>.size
    let run = Swift.max(1, 4_096 / Swift.max(1, stride))

    // Bytes are compared only while they pay: a run whose elements are all equal but
    // none byte for byte (two documents parsed apart, rows with differing padding)
    // switches to `areEqual` alone for the rest of the scan.
    var usesBytes = true
    /// Scans the elements `first(i)`/`second(i)` for `i` in `start..<end` and returns
    /// the first that differs (or `end`).
    func scan(
      _ start: Int, _ end: Int, _ first: (Int) -> UnsafeMutablePointer<Element>,
      _ second: (Int) -> UnsafeMutablePointer<Element>
    ) -> Int {
      var index = start
      var identical = 0
      while index < end {
        if usesBytes && memcmp(first(index), second(index), size) == 0 {
          identical += 1
        } else if !areEqual(first(index), second(index)) {
          return index
        }
        index += 1
      }
      if identical == 0 { usesBytes = false }
      return end
    }

    var prefix = 0
    while prefix < shared {
      let length = Swift.min(run, shared - prefix)
      if usesBytes && memcmp(a + prefix, b + prefix, length * stride) == 0 {
        prefix += length
        continue
      }
      let end = prefix + length
      prefix = scan(prefix, end, { a + $0 }, { b + $0 })
      if prefix < end { break }
    }

    // Backwards from both ends: element `count - 1 - suffix` of `a` against element
    // `other.count - 1 - suffix` of `b`.
    let limit = shared - prefix
    let endA = a + count
    let endB = b + other.count
    var suffix = 0
    while suffix < limit {
      let length = Swift.min(run, limit - suffix)
      if usesBytes && memcmp(endA - suffix - length, endB - suffix - length, length * stride) == 0 {
        suffix += length
        continue
      }
      let end = suffix + length
      suffix = scan(suffix, end, { endA - $0 - 1 }, { endB - $0 - 1 })
      if suffix < end { break }
    }
    return (prefix, suffix)
  }
}
