/// Encodes one view over and over and answers each time with the RFC 6902 patch from
/// the previous view: the per-topic engine behind every `patch` message.
///
/// It keeps the last view's JSON and a cache of the `Equatable` values it was made of.
/// On the next ``update(to:)``, a value equal to the one encoded at the same place last
/// time reuses its JSON instead of being encoded again, and the diff skips reused JSON
/// by identity instead of walking it.
///
/// Arrays of `Equatable` elements (a view's tables) get three more things, so that an
/// action touching a few rows costs about what those rows cost, whatever the table's size:
/// - rows are compared first by their bytes, then with `==`: a row the action did not
///   touch is a bit-for-bit copy of last time's, so the unchanged runs are `memcmp`ed;
/// - the tracker keeps the rows it compares with in a buffer of its own and edits the
///   changed range in place, so it never holds the app's array after an update (the
///   app's next change to it is made in place, not copied) and frees no old rows;
/// - the table's JSON array is edited in place too, taken out of the previous document,
///   and the diff is told which range was replaced (`ArrayEdit`), so no row's JSON is
///   retained, released or walked unless it changed.
///
/// So one changed row of a large table costs about what that row costs (figures in
/// docs/PERFORMANCE.md, "json: per action"). The in-place paths need the tracker to hold
/// its cache and document alone, as it does unless it was copied or a copy of
/// ``current`` is kept across the next update (then arrays are copied as before: still
/// correct).
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
    // old cache apart and edit cached arrays in place, in the cache and in the old
    // document, which it then holds alone (see `ArrayEdit`).
    var previous = cache
    cache = nil
    var owned = false
    if previous != nil { owned = isKnownUniquelyReferenced(&previous!) }
    if owned {
      context.document = current
      current = .null
    }
    let json: JSON
    let newCache: CacheNode?
    do {
      (json, newCache) = try ValueEncoder.encodeTopLevel(
        view, context: context, cache: previous, ownsCache: owned)
    } catch {
      // The old document is whole again; a cache taken apart is lost (the next update
      // encodes from scratch, still diffing against `current`).
      if owned {
        context.undoEdits()
        current = context.document ?? .null
      } else {
        cache = previous
      }
      throw error
    }
    var differ = Differ(edits: context.edits)
    differ.diff(owned ? context.document ?? .null : current, json)
    context.document = nil
    context.edits = []
    current = json
    cache = newCache
    return JSONPatch(differ.operations)
  }

  /// Forgets the last view: the next ``update(to:)`` starts over from `null`.
  public mutating func reset() {
    current = .null
    cache = nil
  }
}
