import Foundation
import Statecast
import StatecastExamples
import StatecastJSON
import Testing

@Suite("Rows")
struct RowsTests {
  let table = RowsTable(count: 1000)

  func view(after actions: [Rows.Action]) -> Rows.ViewState {
    var state = Rows.State(table: table)
    let reducer = Rows.reducer()
    for action in actions { _ = reducer.reduce(into: &state, action: action) }
    return Rows.viewState(state)
  }

  @Test func theViewIsTheWindowOfTheWholeList() {
    let view = view(after: [])
    #expect(view.rows.total == 1000 && view.rows.start == 0 && view.rows.rows.count == 60)
    #expect(view.rows.rows.map(\.id) == Array(0..<60))
    #expect(view.ariaSort == ["index": "ascending", "name": "none", "city": "none", "amount": "none"])
  }

  @Test func aWindowPastTheEndShowsTheEnd() {
    let view = view(after: [.scrolled(window: ListWindow(start: 990, count: 60))])
    #expect(view.rows.start == 940 && view.rows.rows.last?.id == 999 && view.rows.rows.count == 60)
  }

  @Test func sortingAgainReversesAndFilteringKeepsOnlyMatches() {
    let ascending = view(after: [.sortTapped(column: .name)]).rows.rows.map(\.name)
    #expect(ascending == ascending.sorted())
    let descending = view(after: [.sortTapped(column: .name), .sortTapped(column: .name)])
    let names = descending.rows.rows.map(\.name)
    #expect(descending.descending && names == names.sorted(by: >) && names.first != ascending.first)
    let filtered = view(after: [.filterChanged(text: "LOVELACE"), .sortTapped(column: .amount)])
    #expect(filtered.matches > 0 && filtered.matches < 1000 && filtered.rows.total == filtered.matches)
    #expect(filtered.rows.rows.allSatisfy { $0.name.hasSuffix("Lovelace") })
    #expect(filtered.rows.rows.map(\.amount) == filtered.rows.rows.map(\.amount).sorted())
    #expect(view(after: [.filterChanged(text: "lovelace"), .filterChanged(text: "")]).matches == 1000)
  }

  @Test func aWindowTheServerWouldNotSendIsRefusedWhenDecoded() throws {
    let decoder = JSONValueDecoder()
    for bad: JSON in [
      ["scrolled": ["window": ["start": -1, "count": 10]]],
      ["scrolled": ["window": ["start": 0, "count": 0]]],
      ["scrolled": ["window": ["start": 0, "count": 501]]],
    ] {
      #expect(throws: (any Error).self) { try decoder.decode(Rows.ClientAction.self, from: bad) }
    }
    let good = try decoder.decode(
      Rows.ClientAction.self, from: ["scrolled": ["window": ["start": 5, "count": 500]]])
    #expect(good == .scrolled(window: ListWindow(start: 5, count: 500)))
  }
}
