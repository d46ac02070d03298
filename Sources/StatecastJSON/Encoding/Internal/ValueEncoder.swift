import Foundation

/// Where a value sits in its parent container, for coding paths and cache lookups.
enum CodingPosition {
  case root
  case key(any CodingKey)
  case index(Int)
  /// The value inside a single-value container: same coding path, own cache slot.
  case wrapped

  var codingKey: (any CodingKey)? {
    switch self {
    case .root, .wrapped: nil
    case .key(let key): key
    case .index(let index): JSONCodingKey(index: index)
    }
  }

  var cachePosition: CachePosition {
    switch self {
    case .root, .wrapped: .index(-1)
    case .key(let key): .key(key.stringValue)
    case .index(let index): .index(index)
    }
  }
}

/// The `Encoder` behind ``JSONValueEncoder`` and ``JSONViewTracker``: one per encoded
/// value (or nested container), holding the members, elements or single value written
/// into it until ``finish()`` turns them into `JSON`.
///
/// Nested containers and super encoders are separate `ValueEncoder`s whose results are
/// written into their parent's slot when the parent finishes, since a caller may keep
/// writing into them after it wrote other keys.
final class ValueEncoder: Encoder {
  enum Kind { case empty, single, object, array }

  let context: EncodingContext
  let parent: ValueEncoder?
  let position: CodingPosition

  var kind = Kind.empty
  var single = JSON.null
  var members: [(key: String, value: JSON)] = []
  var elements: [JSON] = []
  /// Key positions in `members`, once an object has many members.
  var memberIndex: [String: Int]? = nil
  /// Nested containers and super encoders, finished into `members` or `elements`.
  var pending: [(slot: Int, encoder: ValueEncoder)] = []

  /// The cache of this position from the previous pass (tracking only).
  var oldCache: CacheNode?
  /// Whether this pass owns `oldCache` alone and may take it apart: move its children
  /// into the new tree and edit cached arrays in place (see `CacheNode`).
  var ownsOldCache = false
  /// The cache being built for positions below this one (tracking only).
  var newCache: CacheNode?

  init(context: EncodingContext, parent: ValueEncoder?, position: CodingPosition) {
    self.context = context
    self.parent = parent
    self.position = position
  }

  var codingPath: [any CodingKey] {
    var path: [any CodingKey] = []
    var encoder: ValueEncoder? = self
    while let current = encoder {
      if let key = current.position.codingKey { path.append(key) }
      encoder = current.parent
    }
    return path.reversed()
  }

  /// Where this encoder's value sits in the document being encoded (a single-value
  /// container's value sits where the container does).
  var documentPath: [CachePosition] {
    var path: [CachePosition] = []
    var encoder: ValueEncoder? = self
    while let current = encoder {
      switch current.position {
      case .root, .wrapped: break
      case .key(let key): path.append(.key(key.stringValue))
      case .index(let index): path.append(.index(index))
      }
      encoder = current.parent
    }
    return path.reversed()
  }

  var userInfo: [CodingUserInfoKey: Any] { context.userInfo }

  func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
    if kind != .object {
      kind = .object
      members.reserveCapacity(8)
    }
    return KeyedEncodingContainer(KeyedContainer<Key>(encoder: self))
  }

  func unkeyedContainer() -> any UnkeyedEncodingContainer {
    kind = .array
    return UnkeyedContainer(encoder: self)
  }

  func singleValueContainer() -> any SingleValueEncodingContainer {
    SingleValueContainer(encoder: self)
  }

  // MARK: - Writing

  /// Sets member `key`; a key written twice keeps its first position and last value.
  func setMember(_ key: String, _ value: JSON) {
    if let memberIndex {
      if let existing = memberIndex[key] {
        members[existing].value = value
      } else {
        self.memberIndex![key] = members.count
        members.append((key, value))
      }
      return
    }
    let keyCount = key.utf8.count
    for index in members.indices where members[index].key.utf8.count == keyCount && members[index].key == key
    {
      members[index].value = value
      return
    }
    members.append((key, value))
    if members.count == 16 {
      memberIndex = Dictionary(uniqueKeysWithValues: members.enumerated().map { ($1.key, $0) })
    }
  }

  /// A new encoder for a nested container or super encoder at `key` of this object.
  func pendingMember(_ key: any CodingKey, kind: Kind) -> ValueEncoder {
    setMember(key.stringValue, .null)
    let slot = memberIndex?[key.stringValue] ?? members.lastIndex { $0.key == key.stringValue }!
    let child = ValueEncoder(context: context, parent: self, position: .key(key))
    child.kind = kind
    pending.append((slot, child))
    return child
  }

  /// A new encoder for a nested container or super encoder appended to this array.
  func pendingElement(kind: Kind) -> ValueEncoder {
    let child = ValueEncoder(context: context, parent: self, position: .index(elements.count))
    child.kind = kind
    pending.append((elements.count, child))
    elements.append(.null)
    return child
  }

  /// Lets `value` encode itself into this encoder. If it throws, the nested encoders it
  /// opened are let go of (see ``finish()``).
  func encode(_ value: some Encodable) throws {
    do {
      try value.encode(to: self)
    } catch {
      discardPending()
      throw error
    }
  }

  private func discardPending() {
    for (_, child) in pending { child.discardPending() }
    pending.removeAll()
  }

  /// The JSON written into this encoder; an encoder that got nothing is `{}`, as in
  /// Foundation.
  func finish() throws -> JSON {
    // The pending encoders refer back to this one (`parent`): let go of them once they
    // are written, or the pair would keep each other, and this encoder's cache, alive.
    defer { pending.removeAll() }
    switch kind {
    case .empty:
      return .object(JSONObject())
    case .single:
      return single
    case .object:
      for (slot, child) in pending { members[slot].value = try child.finish() }
      return .object(JSONObject(uncheckedMembers: members))
    case .array:
      for (slot, child) in pending { elements[slot] = try child.finish() }
      return .array(elements)
    }
  }

  // MARK: - Values

  /// Encodes a top-level value: the entry point of both encoders.
  /// `ownsCache` says that nothing else refers to `cache`, which the pass may then take
  /// apart (it is unusable afterwards, even if encoding throws).
  static func encodeTopLevel<T: Encodable>(
    _ value: T, context: EncodingContext, cache: CacheNode?, ownsCache: Bool = false
  ) throws -> (json: JSON, cache: CacheNode?) {
    if let json = try scalar(value, at: []) { return (json, nil) }
    let encoder = ValueEncoder(context: context, parent: nil, position: .root)
    if context.isTracking, let array = value as? any CacheableArray {
      let node = try array.encodeCached(in: encoder, old: cache, ownsOld: ownsCache && cache != nil)
      return (node.json, node)
    }
    encoder.oldCache = cache
    encoder.ownsOldCache = ownsCache
    try encoder.encode(value)
    guard encoder.kind != .empty else {
      throw EncodingError.invalidValue(
        value, .init(codingPath: [], debugDescription: "Top-level \(T.self) did not encode any values."))
    }
    return (try encoder.finish(), encoder.newCache)
  }

  /// Encodes a child value at `position` below this encoder, reusing cached JSON when
  /// tracking and the value is unchanged.
  func encodeChild<T: Encodable>(_ value: T, at position: CodingPosition) throws -> JSON {
    if let json = try Self.scalar(value, at: self.codingPath + [position.codingKey].compactMap { $0 }) {
      return json
    }
    guard context.isTracking else { return try encodeStructured(value, at: position) }

    let cachePosition = position.cachePosition
    let (old, ownsOld) = takeOldChild(at: cachePosition)
    let child = ValueEncoder(context: context, parent: self, position: position)
    let node: CacheNode
    if let array = value as? any CacheableArray {
      node = try array.encodeCached(in: child, old: old, ownsOld: ownsOld)
    } else if let equatable = value as? any Equatable {
      if let old, let oldValue = old.value, isEqual(equatable, oldValue) {
        node = old
      } else {
        child.oldCache = old
        child.ownsOldCache = ownsOld
        try child.encode(value)
        let built = child.newCache ?? CacheNode()
        built.value = value
        built.json = try child.finish()
        node = built
      }
    } else {
      // Not `Equatable`: never reused whole, so the node keeps no JSON of its own (which
      // would be one more holder of the arrays below it; see `ArrayEdit`).
      child.oldCache = old
      child.ownsOldCache = ownsOld
      try child.encode(value)
      let json = try child.finish()
      guard let built = child.newCache else { return json }
      if newCache == nil { newCache = CacheNode() }
      newCache!.children[cachePosition] = built
      return json
    }
    if newCache == nil { newCache = CacheNode() }
    newCache!.children[cachePosition] = node
    return node.json
  }

  /// The previous pass's cache of the child at `position`, and whether this pass owns it
  /// alone. An owned cache gives its child up (so that the child's only reference is the
  /// one returned), and the child is owned if that was the last reference to it.
  private func takeOldChild(at position: CachePosition) -> (CacheNode?, owned: Bool) {
    guard let oldCache else { return (nil, false) }
    guard ownsOldCache else { return (oldCache.children[position], false) }
    var child = oldCache.children.removeValue(forKey: position)
    guard child != nil else { return (nil, false) }
    let owned = isKnownUniquelyReferenced(&child!)
    return (child, owned)
  }

  /// Encodes a child value at `position` with no cache.
  func encodeFresh<T: Encodable>(_ value: T, at position: CodingPosition) throws -> JSON {
    if let json = try Self.scalar(value, at: self.codingPath + [position.codingKey].compactMap { $0 }) {
      return json
    }
    return try encodeStructured(value, at: position)
  }

  private func encodeStructured<T: Encodable>(_ value: T, at position: CodingPosition) throws -> JSON {
    let child = ValueEncoder(context: context, parent: self, position: position)
    try child.encode(value)
    return try child.finish()
  }
}
