import StatecastTesting

extension TestClock where Duration == Swift.Duration {
  /// Waits until some task sleeps on this clock, so that advancing it next is sure to
  /// wake that task instead of racing with it.
  func waitUntilSleeping() async {
    while (try? await checkSuspension()) != nil {}
  }
}
