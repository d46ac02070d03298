extension JSONPatch {
  /// The document after applying every operation in order, with full RFC 6902 semantics:
  /// `add` inserts into arrays (`-` appends) and sets object members, `remove` and
  /// `replace` need an existing target, `move` cannot move a value into its own child,
  /// `test` compares deeply (`1 == 1.0`, object member order ignored).
  ///
  /// Atomic: if any operation fails, the error is thrown and `document` is not changed
  /// (it is a value; only the copy being patched is touched).
  public func applied(to document: JSON) throws(JSONPatchError) -> JSON {
    var result = document
    for (index, operation) in operations.enumerated() {
      try PatchApplier.apply(operation, to: &result, index: index)
    }
    return result
  }

  /// Applies the patch to `document` in place; on failure `document` is left as it was.
  public func apply(to document: inout JSON) throws(JSONPatchError) {
    document = try applied(to: document)
  }
}

/// The six RFC 6902 operations over `inout JSON`, navigating with copy-on-write so only
/// the containers along a path are copied, once.
enum PatchApplier {
  static func apply(_ operation: JSONPatchOperation, to document: inout JSON, index: Int)
    throws(JSONPatchError)
  {
    switch operation {
    case .add(let path, let value):
      try add(value, at: path, in: &document, index: index)
    case .remove(let path):
      _ = try remove(at: path, in: &document, index: index)
    case .replace(let path, let value):
      try replace(at: path, with: value, in: &document, index: index)
    case .move(let from, let path):
      if from == path {
        guard document[from] != nil else { throw .pathNotFound(from, operation: index) }
        return
      }
      if from.isProperPrefix(of: path) { throw .moveIntoItself(from: from, path: path, operation: index) }
      let value = try remove(at: from, in: &document, index: index)
      try add(value, at: path, in: &document, index: index)
    case .copy(let from, let path):
      guard let value = try value(at: from, in: document, index: index) else {
        throw .pathNotFound(from, operation: index)
      }
      try add(value, at: path, in: &document, index: index)
    case .test(let path, let expected):
      guard let actual = try value(at: path, in: document, index: index) else {
        throw .pathNotFound(path, operation: index)
      }
      guard actual == expected else { throw .testFailed(path, operation: index) }
    }
  }

  /// The value at `pointer`, `nil` if absent; a malformed array index is an error.
  private static func value(at pointer: JSONPointer, in document: JSON, index: Int) throws(JSONPatchError)
    -> JSON?
  {
    var current = document
    for token in pointer.tokens {
      switch current {
      case .object(let object):
        guard let member = object[token] else { return nil }
        current = member
      case .array(let array):
        guard let position = JSONPointer.arrayIndex(token) else {
          if token == "-" { return nil }
          throw .invalidIndex(pointer, operation: index)
        }
        guard position < array.count else { return nil }
        current = array[position]
      default:
        return nil
      }
    }
    return current
  }

  private static func add(_ value: JSON, at pointer: JSONPointer, in document: inout JSON, index: Int)
    throws(JSONPatchError)
  {
    guard let last = pointer.tokens.last else {
      document = value
      return
    }
    try withContainer(of: pointer, in: &document, index: index) { container throws(JSONPatchError) in
      switch container {
      case .object(var object):
        container = .null
        object[last] = value
        container = .object(object)
      case .array(var array):
        let position: Int
        if last == "-" {
          position = array.count
        } else {
          guard let parsed = JSONPointer.arrayIndex(last), parsed <= array.count else {
            throw .invalidIndex(pointer, operation: index)
          }
          position = parsed
        }
        container = .null
        array.insert(value, at: position)
        container = .array(array)
      default:
        throw .pathNotFound(pointer, operation: index)
      }
    }
  }

  private static func remove(at pointer: JSONPointer, in document: inout JSON, index: Int)
    throws(JSONPatchError) -> JSON
  {
    guard let last = pointer.tokens.last else { throw .cannotRemoveRoot(operation: index) }
    return try withContainer(of: pointer, in: &document, index: index) { container throws(JSONPatchError) in
      switch container {
      case .object(var object):
        guard object.index(forKey: last) != nil else { throw .pathNotFound(pointer, operation: index) }
        container = .null
        let removed = object.removeValue(forKey: last)!
        container = .object(object)
        return removed
      case .array(var array):
        guard let position = JSONPointer.arrayIndex(last), position < array.count else {
          throw .invalidIndex(pointer, operation: index)
        }
        container = .null
        let removed = array.remove(at: position)
        container = .array(array)
        return removed
      default:
        throw .pathNotFound(pointer, operation: index)
      }
    }
  }

  private static func replace(at pointer: JSONPointer, with value: JSON, in document: inout JSON, index: Int)
    throws(JSONPatchError)
  {
    guard let last = pointer.tokens.last else {
      document = value
      return
    }
    try withContainer(of: pointer, in: &document, index: index) { container throws(JSONPatchError) in
      switch container {
      case .object(var object):
        guard let position = object.index(forKey: last) else {
          throw .pathNotFound(pointer, operation: index)
        }
        container = .null
        object.members[position].value = value
        container = .object(object)
      case .array(var array):
        guard let position = JSONPointer.arrayIndex(last), position < array.count else {
          throw .invalidIndex(pointer, operation: index)
        }
        container = .null
        array[position] = value
        container = .array(array)
      default:
        throw .pathNotFound(pointer, operation: index)
      }
    }
  }

  /// Calls `body` with the container that holds the last token of `pointer`, in place.
  private static func withContainer<R>(
    of pointer: JSONPointer, in document: inout JSON, index: Int,
    _ body: (inout JSON) throws(JSONPatchError) -> R
  ) throws(JSONPatchError) -> R {
    try descend(&document, pointer.tokens.dropLast(), pointer: pointer, index: index, body)
  }

  private static func descend<R>(
    _ value: inout JSON, _ tokens: ArraySlice<String>, pointer: JSONPointer, index: Int,
    _ body: (inout JSON) throws(JSONPatchError) -> R
  ) throws(JSONPatchError) -> R {
    guard let token = tokens.first else { return try body(&value) }
    let rest = tokens.dropFirst()
    switch value {
    case .object(var object):
      guard let position = object.index(forKey: token) else { throw .pathNotFound(pointer, operation: index) }
      // Release the enum's reference so the members are uniquely owned and mutate in place.
      value = .null
      defer { value = .object(object) }
      return try descend(&object.members[position].value, rest, pointer: pointer, index: index, body)
    case .array(var array):
      guard let position = JSONPointer.arrayIndex(token) else {
        throw .invalidIndex(pointer, operation: index)
      }
      guard position < array.count else { throw .pathNotFound(pointer, operation: index) }
      value = .null
      defer { value = .array(array) }
      return try descend(&array[position], rest, pointer: pointer, index: index, body)
    default:
      throw .pathNotFound(pointer, operation: index)
    }
  }
}
