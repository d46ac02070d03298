/// The view of a long list that a page shows through `data-sc-window`: how many rows the
/// whole list has, and the rows of the window in view, with the position of the first.
///
/// The whole list stays on the server (or is computed when needed); only the window is
/// encoded and diffed, so scrolling sends the rows that came into view and removes those
/// that left, whatever the list's length. Give rows a unique `id` so that the diff and
/// the page match rows by it (a row kept across windows is not sent again).
///
/// ```swift
/// public var rows: WindowedList<Row> {
///   WindowedList(window, total: order.count) { table.row(at: order[$0]) }
/// }
/// ```
/// encodes as `{"total": 100000, "start": 200, "rows": [{"id": 200, …}, …]}`.
public struct WindowedList<Row: Encodable & Sendable>: Encodable, Sendable {
  /// The length of the whole list (the page's scrollbar is this many rows long).
  public let total: Int
  /// The position of `rows[0]` in the whole list.
  public let start: Int
  /// The rows in the window.
  public let rows: [Row]

  public init(total: Int, start: Int, rows: [Row]) {
    self.total = total
    self.start = start
    self.rows = rows
  }

  /// The rows `window` shows of a list of `total` rows, each made by `row(position)`.
  public init(_ window: ListWindow, total: Int, row: (Int) -> Row) {
    let range = window.range(in: total)
    self.init(total: total, start: range.lowerBound, rows: range.map(row))
  }
}
