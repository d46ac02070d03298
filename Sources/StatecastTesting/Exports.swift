// Controllable clocks (`TestClock`, `ImmediateClock`) from pointfreeco/swift-clocks, so
// that a test importing `StatecastTesting` can drive timer effects instantly: pass a
// `TestClock` as the feature's `any Clock<Duration>` dependency and `advance(by:)` it.
@_exported import Clocks
