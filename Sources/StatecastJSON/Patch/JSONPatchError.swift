/// Why a patch could not be read or applied. Applying is atomic: after any of these,
/// the document is as it was.
public enum JSONPatchError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The patch document is not an array of well-formed operations (RFC 6902 §4); the
  /// text says which member of which operation is wrong.
  case invalidPatch(String)
  /// A string that is not a JSON Pointer (RFC 6901).
  case invalidPointer(String)
  /// The location (or the container it would go into) does not exist.
  case pathNotFound(JSONPointer, operation: Int)
  /// An array index that is malformed (`01`, `x`), past the end, or `-` where an
  /// existing element is required.
  case invalidIndex(JSONPointer, operation: Int)
  /// A `test` found a different value (or none).
  case testFailed(JSONPointer, operation: Int)
  /// A `move` whose destination lies inside the value it moves.
  case moveIntoItself(from: JSONPointer, path: JSONPointer, operation: Int)
  /// A `remove` of the whole document, which would leave no document.
  case cannotRemoveRoot(operation: Int)

  public var description: String {
    switch self {
    case .invalidPatch(let message): "invalid JSON Patch: \(message)"
    case .invalidPointer(let pointer): "invalid JSON Pointer \"\(pointer)\""
    case .pathNotFound(let path, let operation): "operation \(operation): no value at \"\(path)\""
    case .invalidIndex(let path, let operation): "operation \(operation): invalid array index in \"\(path)\""
    case .testFailed(let path, let operation): "operation \(operation): test failed at \"\(path)\""
    case .moveIntoItself(let from, let path, let operation):
      "operation \(operation): cannot move \"\(from)\" into its own child \"\(path)\""
    case .cannotRemoveRoot(let operation): "operation \(operation): cannot remove the whole document"
    }
  }
}
