extension JSON: Equatable, Hashable {
  /// Deep equality as RFC 6902 `test` defines it: numbers by value (`1 == 1.0`), strings
  /// by code points, arrays element by element in order, objects by members in any order.
  public static func == (lhs: JSON, rhs: JSON) -> Bool {
    switch (lhs, rhs) {
    case (.null, .null): true
    case (.bool(let a), .bool(let b)): a == b
    case (.int(let a), .int(let b)): a == b
    case (.double(let a), .double(let b)): a == b
    case (.int(let a), .double(let b)), (.double(let b), .int(let a)): Int64(exactly: b) == a
    case (.string(let a), .string(let b)): a == b
    case (.array(let a), .array(let b)): a.isIdentical(to: b) || a == b
    case (.object(let a), .object(let b)): a == b
    default: false
    }
  }

  /// Whether both values are the same storage (or equal scalars), without a deep walk.
  ///
  /// True means equal; false means only "not known to be equal". The diff uses it to skip
  /// subtrees that the view tracker reused from its cache.
  func isIdentical(to other: JSON) -> Bool {
    // Nested switches rather than a tuple, so no payload is copied (retained).
    switch self {
    case .array(let a):
      if case .array(let b) = other { return a.isIdentical(to: b) }
    case .object(let a):
      if case .object(let b) = other { return a.members.isIdentical(to: b.members) }
    case .string(let a):
      if case .string(let b) = other { return a == b }
    case .int(let a):
      if case .int(let b) = other { return a == b }
    case .bool(let a):
      if case .bool(let b) = other { return a == b }
    case .null:
      if case .null = other { return true }
    case .double:
      break
    }
    return false
  }

  public func hash(into hasher: inout Hasher) {
    switch self {
    case .null:
      hasher.combine(0 as UInt8)
    case .bool(let value):
      hasher.combine(1 as UInt8)
      hasher.combine(value)
    case .int(let value):
      hasher.combine(2 as UInt8)
      hasher.combine(value)
    case .double(let value):
      // Equal to an `.int` exactly when it is that integer: hash it the same way.
      if let integer = Int64(exactly: value) {
        hasher.combine(2 as UInt8)
        hasher.combine(integer)
      } else {
        hasher.combine(3 as UInt8)
        hasher.combine(value)
      }
    case .string(let value):
      hasher.combine(4 as UInt8)
      hasher.combine(value)
    case .array(let value):
      hasher.combine(5 as UInt8)
      hasher.combine(value)
    case .object(let value):
      hasher.combine(6 as UInt8)
      hasher.combine(value)
    }
  }
}
