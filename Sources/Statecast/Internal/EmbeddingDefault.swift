/// Keeps the two default `embed` functions of ``Feature`` from calling each other
/// forever when a feature implements neither: the second default entered on the same
/// call stops with a message that names the feature and what to write.
enum EmbeddingDefault {
  private static let entered = TaskLocal(wrappedValue: false)

  /// Runs `body` (the other `embed`), or stops when a default is already running.
  static func enter<Action>(_ feature: Any.Type, _ body: () -> Action) -> Action {
    guard !entered.get() else {
      preconditionFailure(
        "\(feature) implements neither embed(_:) nor embed(_:from:) of Feature: implement one")
    }
    return entered.withValue(true, operation: body)
  }
}
