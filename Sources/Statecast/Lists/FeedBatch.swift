/// The latest rows of an append-only list (a log, a ticker, a chat) that a page shows
/// through `data-sc-feed`: the page appends each row it has not shown yet and keeps it,
/// so the server holds only the last few it sent, never the whole feed.
///
/// ```swift
/// state.readings.append(Reading(id: n, value: v))   // keeps the newest `capacity`
/// ```
/// encodes as the array of those rows, oldest first.
public struct FeedBatch<Row: Encodable & Sendable>: Encodable, Sendable {
  /// How many of the newest rows are kept.
  public let capacity: Int
  /// The rows kept, oldest first.
  public private(set) var rows: [Row] = []

  /// An empty feed that keeps the newest `capacity` rows (at least one).
  public init(capacity: Int = 8) {
    self.capacity = max(1, capacity)
  }

  /// Adds `row`, forgetting the oldest beyond ``capacity``.
  public mutating func append(_ row: Row) {
    rows.append(row)
    if rows.count > capacity { rows.removeFirst(rows.count - capacity) }
  }

  public func encode(to encoder: any Encoder) throws {
    try rows.encode(to: encoder)
  }
}

extension FeedBatch: Equatable where Row: Equatable {}
