/// Describes why a client action did not decode as the route's `ClientAction`, in the
/// words of JSON (an object, a string) rather than Swift's, for a client author to act on.
func describeDecodingFailure(_ error: any Error, of type: Any.Type) -> String {
  let name = String(describing: type)
  guard let error = error as? DecodingError else {
    return "the action is not a valid \(name): \(error)"
  }
  func path(_ context: DecodingError.Context) -> String {
    let keys = context.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }
    return keys.isEmpty ? "the action" : "action." + keys.joined(separator: ".")
  }
  switch error {
  case .typeMismatch(let expected, let context):
    return "\(path(context)) should be \(jsonKind(of: expected))"
  case .valueNotFound(let expected, let context):
    return "\(path(context)) is null; it should be \(jsonKind(of: expected))"
  case .keyNotFound(let key, let context):
    return "\(path(context)) has no \"\(key.stringValue)\""
  case .dataCorrupted(let context):
    return "\(path(context)) is not a valid \(name): \(context.debugDescription)"
  @unknown default:
    return "the action is not a valid \(name)"
  }
}

/// What a value of `type` is in JSON: "an object" for a keyed container or a
/// dictionary, "an array" for an unkeyed one, and so on.
private func jsonKind(of type: Any.Type) -> String {
  let name = String(describing: type)
  if name.hasPrefix("KeyedDecodingContainer") || name.hasPrefix("Dictionary") { return "an object" }
  if name.hasPrefix("UnkeyedDecodingContainer") || name.hasPrefix("Array") { return "an array" }
  switch type {
  case is String.Type, is Character.Type: return "a string"
  case is Bool.Type: return "true or false"
  case is any BinaryInteger.Type: return "an integer"
  case is any BinaryFloatingPoint.Type: return "a number"
  default: return "a \(name)"
  }
}
