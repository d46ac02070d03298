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
  /// answer.
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

    func same(_ x: UnsafeMutablePointer<Element>, _ y: UnsafeMutablePointer<Element>) -> Bool {
      memcmp(x, y, size) == 0 || areEqual(x, y)
    }

    var prefix = 0
    while prefix < shared {
      let length = Swift.min(run, shared - prefix)
      if memcmp(a + prefix, b + prefix, length * stride) == 0 {
        prefix += length
        continue
      }
      let end = prefix + length
      while prefix < end && same(a + prefix, b + prefix) { prefix += 1 }
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
      if memcmp(endA - suffix - length, endB - suffix - length, length * stride) == 0 {
        suffix += length
        continue
      }
      let end = suffix + length
      while suffix < end && same(endA - suffix - 1, endB - suffix - 1) { suffix += 1 }
      if suffix < end { break }
    }
    return (prefix, suffix)
  }
}
