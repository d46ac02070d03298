/// A type-erased cancellation id, so that ids of any `Hashable & Sendable` type can share
/// one table in the store.
///
/// Two ids are equal when they are of the same type and equal as that type (so `1` and
/// `1 as Int8` are different ids).
package struct CancelID: Hashable, Sendable {
  private let base: any Hashable & Sendable

  package init(_ id: some Hashable & Sendable) {
    self.base = id
  }

  package static func == (lhs: CancelID, rhs: CancelID) -> Bool {
    func isEqual<T: Hashable>(_ left: T) -> Bool {
      guard let right = rhs.base as? T else { return false }
      return left == right
    }
    return type(of: lhs.base) == type(of: rhs.base) && isEqual(lhs.base)
  }

  package func hash(into hasher: inout Hasher) {
    hasher.combine(ObjectIdentifier(type(of: base)))
    base.hash(into: &hasher)
  }
}
