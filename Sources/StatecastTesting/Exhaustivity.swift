/// How strictly a ``TestStore`` checks what the test did not assert.
public enum Exhaustivity: Sendable, Equatable {
  /// Every state change, every received action and every effect still running at the
  /// end must be asserted; anything left out fails the test. The default.
  case on
  /// Only what the test asserts is checked: state changes a closure does not mention,
  /// received actions the test does not wait for, and effects still running are
  /// ignored. Useful for integration-style tests of a large feature.
  case off
}
