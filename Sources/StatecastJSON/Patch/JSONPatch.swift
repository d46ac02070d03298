/// A JSON Patch document (RFC 6902): a list of operations that turns one JSON document
/// into another.
///
/// ``diff(from:to:)`` makes small patches (one changed field gives one operation; rows
/// with an `"id"` are matched by identity), ``applied(to:)`` applies any patch with full
/// RFC semantics, atomically, and ``json`` / ``init(json:)`` convert to and from the
/// wire form that any conforming library (Python `jsonpatch`, JavaScript
/// `fast-json-patch`) understands.
///
/// ```swift
/// let patch = JSONPatch.diff(from: ["count": 1], to: ["count": 2])
/// patch.json                     // [{"op":"replace","path":"/count","value":2}]
/// try patch.applied(to: ["count": 1]) == ["count": 2]   // true
/// ```
public struct JSONPatch: Sendable, Equatable, ExpressibleByArrayLiteral {
  public var operations: [JSONPatchOperation]

  public init(_ operations: [JSONPatchOperation] = []) {
    self.operations = operations
  }

  public init(arrayLiteral operations: JSONPatchOperation...) {
    self.operations = operations
  }

  /// Whether the patch changes nothing.
  public var isEmpty: Bool { operations.isEmpty }

  /// The RFC 6902 array form.
  public var json: JSON {
    .array(operations.map(\.json))
  }

  /// Reads an RFC 6902 array of operations.
  /// - Throws: ``JSONPatchError/invalidPatch(_:)`` or ``JSONPatchError/invalidPointer(_:)``.
  public init(json: JSON) throws(JSONPatchError) {
    guard case .array(let elements) = json else { throw .invalidPatch("a patch must be an array") }
    var operations: [JSONPatchOperation] = []
    operations.reserveCapacity(elements.count)
    for (index, element) in elements.enumerated() {
      operations.append(try JSONPatchOperation(json: element, index: index))
    }
    self.operations = operations
  }

  /// The compact UTF-8 text of the patch, appended to `buffer`: the same bytes as
  /// `json.serialize(into:)`, without building the intermediate value.
  public func serialize(into buffer: inout [UInt8]) {
    buffer.append(UInt8(ascii: "["))
    for (index, operation) in operations.enumerated() {
      if index != 0 { buffer.append(UInt8(ascii: ",")) }
      JSONWriter.appendASCII("{\"op\":", into: &buffer)
      JSONWriter.writeString(operation.name, into: &buffer)
      switch operation {
      case .add(let path, let value), .replace(let path, let value), .test(let path, let value):
        JSONWriter.appendASCII(",\"path\":", into: &buffer)
        JSONWriter.writePointer(path, into: &buffer)
        JSONWriter.appendASCII(",\"value\":", into: &buffer)
        JSONWriter.write(value, into: &buffer)
      case .remove(let path):
        JSONWriter.appendASCII(",\"path\":", into: &buffer)
        JSONWriter.writePointer(path, into: &buffer)
      case .move(let from, let path), .copy(let from, let path):
        JSONWriter.appendASCII(",\"from\":", into: &buffer)
        JSONWriter.writePointer(from, into: &buffer)
        JSONWriter.appendASCII(",\"path\":", into: &buffer)
        JSONWriter.writePointer(path, into: &buffer)
      }
      buffer.append(UInt8(ascii: "}"))
    }
    buffer.append(UInt8(ascii: "]"))
  }

  /// The compact UTF-8 text of the patch.
  public func serialized() -> [UInt8] {
    var buffer: [UInt8] = []
    serialize(into: &buffer)
    return buffer
  }
}

extension JSONPatch: CustomStringConvertible {
  public var description: String { String(decoding: serialized(), as: UTF8.self) }
}
