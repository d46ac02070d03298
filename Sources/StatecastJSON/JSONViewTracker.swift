/// Encodes one view over and over and answers each time with the RFC 6902 patch from
/// the previous view: the per-topic engine behind every `patch` message.
///
/// It keeps the last view's JSON and a cache of the `Equatable` values it was made of.
/// On the next ``update(to:)``, a value equal to the one encoded at the same place last
/// time reuses its JSON instead of being encoded again, and the diff skips reused JSON
/// by identity instead of walking it. Arrays of `Equatable` elements are compared
/// element by element, so one changed row in a 10,000-row table costs 10,000 `==`
/// (cheaper still when the rows share storage with the last view) plus one row's
/// encoding and a one-operation patch, not a re-encoding of the table.
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
  /// (from `null`). If encoding throws, the tracker is left as it was.
  public mutating func update(to view: some Encodable & Sendable) throws -> JSONPatch {
    let context = EncodingContext(userInfo: userInfo, isTracking: true)
    let (json, newCache) = try ValueEncoder.encodeTopLevel(view, context: context, cache: cache)
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
