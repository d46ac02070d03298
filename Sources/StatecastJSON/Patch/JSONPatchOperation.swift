/// One operation of a JSON Patch (RFC 6902 §4).
public enum JSONPatchOperation: Sendable, Equatable {
  /// Inserts into an array (at an index or `-` for the end), sets an object member, or
  /// replaces the whole document at the root.
  case add(path: JSONPointer, value: JSON)
  /// Removes an existing object member or array element.
  case remove(path: JSONPointer)
  /// Replaces an existing value.
  case replace(path: JSONPointer, value: JSON)
  /// Removes the value at `from` and adds it at `path`.
  case move(from: JSONPointer, path: JSONPointer)
  /// Adds a copy of the value at `from` at `path`.
  case copy(from: JSONPointer, path: JSONPointer)
  /// Fails the whole patch unless the value at `path` equals `value`.
  case test(path: JSONPointer, value: JSON)

  /// The location the operation acts on.
  public var path: JSONPointer {
    switch self {
    case .add(let path, _), .remove(let path), .replace(let path, _), .move(_, let path), .copy(_, let path),
      .test(let path, _):
      path
    }
  }

  /// The operation's name as written in `"op"`.
  public var name: String {
    switch self {
    case .add: "add"
    case .remove: "remove"
    case .replace: "replace"
    case .move: "move"
    case .copy: "copy"
    case .test: "test"
    }
  }

  /// The RFC 6902 object form: `{"op":"replace","path":"/a","value":1}`.
  public var json: JSON {
    var object = JSONObject(minimumCapacity: 3)
    object.appendUnchecked("op", .string(name))
    switch self {
    case .add(let path, let value), .replace(let path, let value), .test(let path, let value):
      object.appendUnchecked("path", .string(path.description))
      object.appendUnchecked("value", value)
    case .remove(let path):
      object.appendUnchecked("path", .string(path.description))
    case .move(let from, let path), .copy(let from, let path):
      object.appendUnchecked("from", .string(from.description))
      object.appendUnchecked("path", .string(path.description))
    }
    return .object(object)
  }

  /// Reads one operation object; members other than `op`, `path`, `from` and `value`
  /// are ignored, as RFC 6902 requires. `index` is the operation's position, for errors.
  public init(json: JSON, index: Int = 0) throws(JSONPatchError) {
    guard case .object(let object) = json else {
      throw .invalidPatch("operation \(index) is not an object")
    }
    guard case .string(let name)? = object["op"] else {
      throw .invalidPatch("operation \(index) has no string \"op\"")
    }
    func pointer(_ member: String) throws(JSONPatchError) -> JSONPointer {
      guard case .string(let text)? = object[member] else {
        throw .invalidPatch("operation \(index) (\(name)) has no string \"\(member)\"")
      }
      return try JSONPointer(text)
    }
    func value() throws(JSONPatchError) -> JSON {
      guard let value = object["value"] else {
        throw .invalidPatch("operation \(index) (\(name)) has no \"value\"")
      }
      return value
    }
    switch name {
    case "add": self = .add(path: try pointer("path"), value: try value())
    case "remove": self = .remove(path: try pointer("path"))
    case "replace": self = .replace(path: try pointer("path"), value: try value())
    case "move": self = .move(from: try pointer("from"), path: try pointer("path"))
    case "copy": self = .copy(from: try pointer("from"), path: try pointer("path"))
    case "test": self = .test(path: try pointer("path"), value: try value())
    default: throw .invalidPatch("operation \(index) has unknown op \"\(name)\"")
    }
  }
}
