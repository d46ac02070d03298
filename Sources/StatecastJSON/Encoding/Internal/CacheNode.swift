/// The JSON last encoded at one position of a view, and the value it came from, so that
/// the next encoding can reuse it when the value there is unchanged.
///
/// A tree that mirrors the view only where something is cached: a node holds the
/// `Equatable` value encoded at its position (if it was `Equatable`) and the nodes of
/// positions below. Each pass builds a new tree that reuses the old nodes still valid.
///
/// A pass that is the only holder of the old tree (the usual case) takes it apart as it
/// goes: it moves each child out of its old parent, and a child it then holds alone is
/// its own to change, so a cached array's elements are edited in place (see
/// `CacheableArray`). A tree that is shared, because a ``JSONViewTracker`` was copied,
/// is only read, never changed, so copies stay independent.
final class CacheNode: @unchecked Sendable {
  // Sendable: a tree is changed only by the pass of the one tracker that holds it alone
  // (`isKnownUniquelyReferenced`); a tree shared by copies of a tracker is only read.
  // `value` is `Any` because the encoder meets it as `some Encodable`, though every
  // value comes from a `Sendable` view.
  /// The `Equatable` value last encoded here, or `nil` if it was not `Equatable`.
  var value: Any?
  /// The JSON of `value`.
  var json: JSON = .null
  /// Cached positions below this one.
  var children: [CachePosition: CacheNode] = [:]

  init() {}

  init(value: Any, json: JSON) {
    self.value = value
    self.json = json
  }
}

/// A child position in a ``CacheNode``: an object key or an array index.
enum CachePosition: Hashable {
  case key(String)
  case index(Int)
}

/// Whether `old` is a `T` equal to `new`. Called with an opened `any Equatable`.
func isEqual<T: Equatable>(_ new: T, _ old: Any) -> Bool {
  guard let old = old as? T else { return false }
  return old == new
}
