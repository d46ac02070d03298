/// Says in one line why an `action` did not decode as a route's client action, for the
/// `message` of a `bad_action` reply: what was expected and where.
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
    return "\(path(context)) should be \(String(describing: expected)): \(context.debugDescription)"
  case .valueNotFound(let expected, let context):
    return "\(path(context)) is missing a \(String(describing: expected)): \(context.debugDescription)"
  case .keyNotFound(let key, let context):
    return "\(path(context)) has no \"\(key.stringValue)\": \(context.debugDescription)"
  case .dataCorrupted(let context):
    return "\(path(context)) is not a valid \(name): \(context.debugDescription)"
  @unknown default:
    return "the action is not a valid \(name)"
  }
}
