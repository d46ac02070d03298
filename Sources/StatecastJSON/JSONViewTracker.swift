/// Encodes one view over and over and answers each time with the RFC 6902 patch from
/// the previous view: the per-topic engine behind every `patch` message.
///
/// It keeps the last view's JSON and a cache of the `Equatable` values it was made of.
/// On the next ``update(to:)``, a value equal to the one encoded at the same place last
/// time reuses its JSON instead of being encoded again, and the diff skips reused JSON
/// by identity instead of walking it. Arrays of `Equatable` elements are compared
/// element by element, first by their bytes (a row the action did not touch is a
/// bit-for-bit copy of last time's) and then with `==`, so one changed row in a
/// 10,000-row table costs a `memcmp` of the rows, one row's encoding and a one-operation
/// patch, not a re-encoding of the table. The tracker keeps its own copy of the rows and
/// edits it in place, so it never holds the app's array after an update and the app's
/// next change to it is made in place rather than copied.
///
/// Make view types and their rows `Equatable` to benefit; values that are not are
/// encoded afresh each time (still correct, only slower). A type whose `==` is an
/// identity check (class-backed storage compared with `===`) is skipped in O(1).
/// Views must be values: an object inside a view that changes in place (same instance,
/// new contents) still compares equal to itself and keeps its old JSON.
///
/// ```swift
/// var tracker = JSONViewTracker()
/// _ = try tracker.update(to: view)           // first call: replace "" with the whole view
/// let patch = try tracker.update(to: nextView)
/// send(patch.json)                           // [{"op":"replace","path":"/rows/7/done","value":true}]
/// snapshot(tracker.current)
/// ```
public struct JSONViewTracker: Sendable {
  /// The JSON of the last view given to ``update(to:)`` (`null` before the first).
  public private(set) var current: JSON = .null

  /// Values handed to the view's types through `Encoder.userInfo`. Changing them
  /// empties the cache, since cached JSON was encoded with the old values.
  public var userInfo: [CodingUserInfoKey: any Sendable] = [:] {
    didSet { cache = nil }
  }

  private var cache: CacheNode?

  public init() {}

  /// Encodes `view`, makes it ``current``, and returns the patch that turns the previous
  /// document into it. The first call returns one `replace` of the whole document
  /// (from `null`). If encoding throws, ``current`` is left as it was (the cache may be
  /// lost, so the next update encodes from scratch; its patch is still from ``current``).
  public mutating func update(to view: some Encodable & Sendable) throws -> JSONPatch {
    let context = EncodingContext(userInfo: userInfo, isTracking: true)
    // Alone with its cache (no copy of this tracker shares it), the pass may take the
    // old cache apart and edit its arrays in place; if encoding then throws, the cache is
    // gone and the next update encodes from scratch (against the same `current`).
    var previous = cache
    cache = nil
    var owned = false
    if previous != nil { owned = isKnownUniquelyReferenced(&previous!) }
    let json: JSON
    let newCache: CacheNode?
    do {
      (json, newCache) = try ValueEncoder.encodeTopLevel(view, context: context, cache: previous, ownsCache: owned)
    } catch {
      if !owned { cache = previous }
      throw error
    }
    let patch = JSONPatch.diff(from: current, to: json)
    current = json
    cache = newCache
    return patch
  }

  /// Forgets the last view: the next ``update(to:)`` starts over from `null`.
  public mutating func reset() {
    current = .null
    cache = nil
  }
}
