import Statecast
import Testing

enum ParentAction: Equatable, Sendable {
  case counter(CounterAction)
  case reset
}

extension ActionPath where Parent == ParentAction, Child == CounterAction {
  static let counter = ActionPath(embed: ParentAction.counter) {
    if case .counter(let action) = $0 { action } else { nil }
  }
}

@Suite struct ActionPathTests {
  @Test func embedsAndExtracts() {
    let path = ActionPath<ParentAction, CounterAction>.counter
    #expect(path.embed(.increment) == .counter(.increment))
    #expect(path.extract(from: .counter(.add(2))) == .add(2))
    #expect(path.extract(from: .reset) == nil)
  }

  @Test func appendsADeeperPath() {
    enum Root: Equatable { case parent(ParentAction), other }
    let root = ActionPath<Root, ParentAction>(embed: Root.parent) {
      if case .parent(let action) = $0 { action } else { nil }
    }
    let path = root.appending(.counter)
    #expect(path.embed(.decrement) == .parent(.counter(.decrement)))
    #expect(path.extract(from: .parent(.counter(.increment))) == .increment)
    #expect(path.extract(from: .parent(.reset)) == nil)
    #expect(path.extract(from: .other) == nil)
  }
}
