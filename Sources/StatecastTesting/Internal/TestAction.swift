/// An action tagged with where it came from, so that the TestStore can tell the test's
/// own actions from those that effects, middlewares and event sources sent back.
struct TestAction<Action: Sendable>: Sendable {
  enum Origin: Sendable {
    case test
    case received
  }

  let action: Action
  let origin: Origin
}
