public import Statecast

/// A table of 100,000 rows that a page scrolls, sorts and filters while holding only the
/// rows in view: the windowed-list example.
///
/// What it shows: the list stays on the server (``RowsTable``, shared by every session);
/// a session keeps its sort, its filter and the positions that match, and its view is
/// only the window the page asked for (``WindowedList``). The page's runtime reports the
/// visible range as the person scrolls (`data-sc-window`), and the server answers with
/// that window as patches: rows that came into view are added, rows that left removed.
///
/// ## View (JSON)
/// ```json
/// {"sort": "name", "descending": false, "filter": "ada", "matches": 4166,
///  "ariaSort": {"index": "none", "name": "ascending", "city": "none", "amount": "none"},
///  "rows": {"total": 4166, "start": 40, "rows": [{"id": 17, "name": "Ada Knuth", "city": "Oslo", "amount": 5120}]}}
/// ```
///
/// ## Client actions
/// `{"scrolled":{"window":{"start":40,"count":100}}}`, `{"sortTapped":{"column":"name"}}`
/// (again: descending), `{"filterChanged":{"text":"ada"}}`.
public enum Rows: Feature {
  /// The columns a page can sort by.
  public enum Column: String, Codable, Sendable, CaseIterable {
    case index, name, city, amount
  }

  /// One row as a page shows it; `id` is its position in the table, 0 to 99,999.
  public struct Row: Encodable, Sendable, Equatable {
    public let id: Int
    public let name: String
    public let city: String
    public let amount: Int
  }

  /// One session's table: how it is sorted and filtered, and where it is scrolled.
  public struct State: Sendable {
    public var sort: Column = .index
    public var descending = false
    public var filter = ""
    public var window = ListWindow(start: 0, count: 60)
    /// The positions of the matching rows in ascending sort order, when a filter is set;
    /// without one, the table's own order is read and the session keeps nothing.
    var matches: [Int32]?
    let table: RowsTable

    public init(table: RowsTable = .shared) {
      self.table = table
    }

    /// How many rows match the filter.
    public var matchCount: Int { matches?.count ?? table.count }

    /// The table position of the row at `position` in the sorted, filtered list.
    public func tablePosition(at position: Int) -> Int {
      let ascending = descending ? matchCount - 1 - position : position
      return Int(matches?[ascending] ?? table.order(by: sort)[ascending])
    }
  }

  public enum ClientAction: Decodable, Sendable, Equatable {
    case scrolled(window: ListWindow)
    case sortTapped(column: Column)
    case filterChanged(text: String)
  }

  public typealias Action = ClientAction

  public struct ViewState: Encodable, Sendable {
    public let sort: Column
    public let descending: Bool
    public let filter: String
    public let matches: Int
    /// Each column's `aria-sort`: `ascending` or `descending` for the sorted one, `none`.
    public let ariaSort: [String: String]
    public let rows: WindowedList<Row>
  }

  /// The longest filter kept; longer text is cut.
  public static let maxFilterLength = 100

  public static func embed(_ action: ClientAction) -> Action { action }

  public static func viewState(_ state: State) -> ViewState {
    ViewState(
      sort: state.sort, descending: state.descending, filter: state.filter, matches: state.matchCount,
      ariaSort: Dictionary(
        uniqueKeysWithValues: Column.allCases.map {
          ($0.rawValue, $0 != state.sort ? "none" : state.descending ? "descending" : "ascending")
        }),
      rows: WindowedList(state.window, total: state.matchCount) {
        state.table.row(state.tablePosition(at: $0))
      })
  }

  public static func reducer() -> Reducer<State, Action> {
    Reducer { state, action in
      switch action {
      // Sorting and filtering keep the window where it is (the page keeps its scroll
      // position; a list that shrank shows its end): the page asks for another when
      // the rows it has do not cover what is in view.
      case .scrolled(let window):
        state.window = window
      case .sortTapped(let column):
        state.descending = column == state.sort ? !state.descending : false
        state.sort = column
        if state.matches != nil { state.matches = state.table.matching(state.filter, by: column) }
      case .filterChanged(let text):
        let text = String(text.prefix(maxFilterLength))
        guard text != state.filter else { return .none }
        state.filter = text
        state.matches = text.isEmpty ? nil : state.table.matching(text, by: state.sort)
      }
      return .none
    }
  }

  public static func makeStore(dependencies: Void, join: Join) -> Store<State, Action> {
    Store(initialState: State(), reducer: reducer())
  }
}
