import Statecast
import StatecastTesting
import Testing

struct Screen: Equatable, Sendable {
  var detail: Counter?
}

enum ScreenAction: Equatable, Sendable {
  case detail(CounterAction)
  case opened
  case closed
}

extension ActionPath where Parent == ScreenAction, Child == CounterAction {
  static let detail = ActionPath(embed: ScreenAction.detail) {
    if case .detail(let action) = $0 { action } else { nil }
  }
}

@Suite struct IfLetTests {
  static func screen(child: Reducer<Counter, CounterAction>) -> Reducer<Screen, ScreenAction> {
    Reducer<Screen, ScreenAction> { state, action in
      switch action {
      case .opened: state.detail = Counter()
      case .closed: state.detail = nil
      case .detail: break
      }
      return .none
    }
    .ifLet(\.detail, action: .detail, then: child)
  }

  @Test func runsTheChildOnlyWhilePresent() {
    let screen = Self.screen(child: counterReducer)
    var state = Screen()
    _ = screen.reduce(into: &state, action: .detail(.increment))
    #expect(state.detail == nil)
    _ = screen.reduce(into: &state, action: .opened)
    _ = screen.reduce(into: &state, action: .detail(.add(2)))
    #expect(state.detail?.count == 2)
  }

  @Test func dismissingTheChildCancelsItsEffects() async {
    let cancelled = Recorder<String>()
    let started = AsyncStream.makeStream(of: Void.self)
    let child = Reducer<Counter, CounterAction> { _, action in
      guard action == .increment else { return .none }
      return .run { send in
        started.continuation.yield()
        do {
          try await Task.sleep(for: .seconds(3600))
        } catch {
          cancelled.record("child effect")
          throw error
        }
        await send(.note("never"))
      }
    }
    let store = TestStore(initialState: Screen(), reducer: Self.screen(child: child))
    await store.send(.opened) { $0.detail = Counter() }
    await store.send(.detail(.increment))
    var iterator = started.stream.makeAsyncIterator()
    await iterator.next()
    await store.send(.closed) { $0.detail = nil }
    await store.finish()
    #expect(cancelled.values == ["child effect"])
  }
}
