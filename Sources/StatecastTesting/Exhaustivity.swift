/// How strictly a ``TestStore`` checks what the test did not assert.
public enum Exhaustivity: Sendable, Equatable {
  /// Every state change, every received action and every effect still running at the
  /// end must be asserted; anything left out fails the test. The default.
  case on
  /// Only what the test asserts is checked: state changes a closure does not mention,
  /// received actions the test does not wait for, and effects still running are
  /// ignored. Useful for integration-style tests of a large feature.
  ///
  /// An assertion closure then receives the state *after* the action, not before it:
  /// what it sets must match, and what it leaves alone is not checked. So assign values
  /// (`$0.options = ["Pizza", "Sushi", "Tacos"]`) rather than change them
  /// (`$0.options.append("Tacos")` would expect a second "Tacos").
  case off
}
