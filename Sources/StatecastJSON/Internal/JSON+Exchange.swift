extension JSON {
  /// Puts `replacement` at `path` and returns the value that was there, or returns `nil`
  /// and changes nothing if there is no such value.
  ///
  /// Containers on the way are edited in place when this value holds them alone, so
  /// the returned value is then held by nobody else either (what lets the view tracker
  /// edit a taken array without copying it; see `ArrayEdit`).
  mutating func exchange(at path: ArraySlice<CachePosition>, with replacement: JSON) -> JSON? {
    guard let first = path.first else {
      let old = self
      self = replacement
      return old
    }
    // No tuple switch: copying `self` into one would keep a second reference alive.
    switch first {
    case .key(let key):
      guard case .object(var object) = self else { return nil }
      self = .null
      defer { self = .object(object) }
      guard let index = object.index(forKey: key) else { return nil }
      return object.members[index].value.exchange(at: path.dropFirst(), with: replacement)
    case .index(let index):
      guard case .array(var array) = self else { return nil }
      self = .null
      defer { self = .array(array) }
      guard array.indices.contains(index) else { return nil }
      return array[index].exchange(at: path.dropFirst(), with: replacement)
    }
  }

  /// The address of this array's element storage, which identifies it while it is
  /// alive; `nil` for anything else and for an empty array (whose storage is shared).
  var arrayStorageAddress: UnsafeRawPointer? {
    guard case .array(let array) = self, !array.isEmpty else { return nil }
    return array.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) }
  }

  /// The number of elements, if this is an array (without copying it out).
  var arrayValueCount: Int? {
    if case .array(let array) = self { array.count } else { nil }
  }
}
