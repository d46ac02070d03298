/// A type-erased cancellation id, so that ids of any `Hashable & Sendable` type can share
/// one table in the store.
package struct CancelID: Hashable, @unchecked Sendable {
  // `AnyHashable` is not declared `Sendable`, but it only ever wraps a value that is.
  private let base: AnyHashable

  package init(_ id: some Hashable & Sendable) {
    self.base = AnyHashable(id)
  }
}
