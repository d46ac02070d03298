import Statecast
import StatecastTesting
import Testing

struct Row: Identifiable, Equatable, Sendable {
  let id: Int
  var counter = Counter()
}

struct Rows: Equatable, Sendable {
  var rows: [Row] = []
  var lastTouched: Int?
}

enum RowsAction: Equatable, Sendable {
  case row(id: Int, action: CounterAction)
  case removeEmptyRows
}

extension ActionPath where Parent == RowsAction, Child == (id: Int, action: CounterAction) {
  static let row = ActionPath(embed: { RowsAction.row(id: $0.id, action: $0.action) }) {
    if case .row(let id, let action) = $0 { (id, action) } else { nil }
  }
}

@Suite struct ForEachTests {
  let rowReducer = Reducer<Row, CounterAction> { row, action in
    counterReducer.reduce(into: &row.counter, action: action)
      .merge(with: action == .increment ? .run { send in await send(.note("ran")) } : .none)
  }

  var rows: Reducer<Rows, RowsAction> {
    Reducer<Rows, RowsAction> { state, action in
      switch action {
      case .row(let id, _):
        state.lastTouched = id
      case .removeEmptyRows:
        state.rows.removeAll { $0.counter.count == 0 }
      }
      return .none
    }
    .forEach(\.rows, action: .row, element: rowReducer)
  }

  @Test func runsTheElementReducerForTheNamedElementOnly() {
    var state = Rows(rows: [Row(id: 1), Row(id: 2)])
    _ = rows.reduce(into: &state, action: .row(id: 2, action: .add(4)))
    #expect(state.rows[0].counter.count == 0)
    #expect(state.rows[1].counter.count == 4)
    #expect(state.lastTouched == 2)
  }

  @Test func ignoresActionsForMissingElements() {
    var state = Rows(rows: [Row(id: 1)])
    let effect = rows.reduce(into: &state, action: .row(id: 9, action: .increment))
    #expect(state.rows == [Row(id: 1)])
    #expect(state.lastTouched == 9)
    #expect(effect.isNone)
  }

  @Test func elementEffectsComeBackTaggedWithTheirId() async {
    let store = TestStore(initialState: Rows(rows: [Row(id: 1), Row(id: 2)]), reducer: rows)
    await store.send(.row(id: 2, action: .increment)) {
      $0.rows[1].counter.count = 1
      $0.lastTouched = 2
    }
    await store.receive(.row(id: 2, action: .note("ran"))) {
      $0.rows[1].counter.history = ["ran"]
    }
    await store.send(.removeEmptyRows) { $0.rows.removeFirst() }
    await store.finish()
  }
}
