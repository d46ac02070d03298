/// The members of a JSON object, in the order they were added.
///
/// Order is kept because views are encoded in declaration order and a reader of a
/// snapshot expects to see fields in that order; it plays no part in equality (two
/// objects with the same members in another order are `==`, as RFC 6902 `test` says).
/// Lookups scan the members, which is fastest for the small objects views are made of;
/// the diff builds its own index when it compares two large objects.
///
/// ```swift
/// var row: JSONObject = ["id": 1, "title": "Milk"]
/// row["done"] = false          // appended
/// row["title"] = "Oat milk"    // replaced in place
/// row.keys                     // ["id", "title", "done"]
/// ```
public struct JSONObject: Sendable {
  /// The members in order; keys are unique.
  @usableFromInline var members: [(key: String, value: JSON)]

  /// An empty object.
  public init() {
    members = []
  }

  /// An empty object with room for `minimumCapacity` members.
  public init(minimumCapacity: Int) {
    members = []
    members.reserveCapacity(minimumCapacity)
  }

  /// An object with the given members in order; a repeated key keeps its first position
  /// and its last value, as JavaScript's `JSON.parse` does.
  public init(uniqueKeysWithValues elements: some Sequence<(String, JSON)>) {
    members = []
    members.reserveCapacity(elements.underestimatedCount)
    for (key, value) in elements { self[key] = value }
  }

  /// An object that takes `members` as they are; the caller guarantees unique keys.
  init(uncheckedMembers members: [(key: String, value: JSON)]) {
    self.members = members
  }

  /// The keys in order.
  public var keys: [String] { members.map(\.key) }

  /// The values in key order.
  public var values: [JSON] { members.map(\.value) }

  /// The position of the member named `key`.
  @inlinable
  public func index(forKey key: String) -> Int? {
    members.firstIndex { $0.key == key }
  }

  /// The value of the member named `key`; setting `nil` removes the member, setting a
  /// new key appends it.
  public subscript(key: String) -> JSON? {
    get {
      guard let index = index(forKey: key) else { return nil }
      return members[index].value
    }
    set {
      if let newValue {
        updateValue(newValue, forKey: key)
      } else {
        removeValue(forKey: key)
      }
    }
  }

  /// Sets the member named `key` (in place if it exists, appended if not) and returns
  /// the value it replaced.
  @discardableResult
  public mutating func updateValue(_ value: JSON, forKey key: String) -> JSON? {
    if let index = index(forKey: key) {
      let old = members[index].value
      members[index].value = value
      return old
    }
    members.append((key, value))
    return nil
  }

  /// Removes the member named `key` and returns its value.
  @discardableResult
  public mutating func removeValue(forKey key: String) -> JSON? {
    guard let index = index(forKey: key) else { return nil }
    return members.remove(at: index).value
  }

  /// Appends a member whose key the caller knows is not present yet.
  mutating func appendUnchecked(_ key: String, _ value: JSON) {
    members.append((key, value))
  }
}

extension JSONObject: RandomAccessCollection {
  public typealias Element = (key: String, value: JSON)
  public var startIndex: Int { members.startIndex }
  public var endIndex: Int { members.endIndex }
  public subscript(position: Int) -> (key: String, value: JSON) { members[position] }
}

extension JSONObject: ExpressibleByDictionaryLiteral {
  public init(dictionaryLiteral elements: (String, JSON)...) {
    self.init(uniqueKeysWithValues: elements)
  }
}

extension JSONObject: Equatable, Hashable {
  /// Same members with equal values, in any order (RFC 6902 `test` semantics).
  public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
    guard lhs.count == rhs.count else { return false }
    if lhs.members.isIdentical(to: rhs.members) { return true }
    // Same order is the common case; fall back to lookups for the rest.
    for index in lhs.members.indices {
      let left = lhs.members[index]
      let right = rhs.members[index]
      if left.key == right.key {
        if left.value != right.value { return false }
      } else {
        guard let other = rhs[left.key], other == left.value else { return false }
      }
    }
    return true
  }

  public func hash(into hasher: inout Hasher) {
    // Order-independent: combine the members' hashes commutatively.
    var sum = 0
    for (key, value) in members {
      var member = Hasher()
      member.combine(key)
      member.combine(value)
      sum = sum &+ member.finalize()
    }
    hasher.combine(count)
    hasher.combine(sum)
  }
}

extension JSONObject: CustomStringConvertible {
  public var description: String { JSON.object(self).description }
}
