extension Array {
  /// Whether both arrays share one buffer, so they are equal without looking inside.
  ///
  /// Arrays are immutable once shared, so a shared buffer means equal contents; this lets
  /// the diff and `==` skip subtrees that the encoder reused from its cache in O(1).
  func isIdentical(to other: [Element]) -> Bool {
    guard count == other.count else { return false }
    if isEmpty { return true }
    return withUnsafeBufferPointer { left in
      other.withUnsafeBufferPointer { right in left.baseAddress == right.baseAddress }
    }
  }
}
