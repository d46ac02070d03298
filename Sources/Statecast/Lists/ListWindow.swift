/// The rows of a long list a page has in view, as its runtime asks for them: from
/// `start`, `count` rows (the visible ones and some overscan on either side).
///
/// A feature with a windowed list keeps one in its state, takes it from a client action
/// (for `data-sc-window-action="scrolled"` the runtime sends
/// `{"scrolled":{"window":{"start":S,"count":C}}}`, a case `scrolled(window: ListWindow)`),
/// and shows its rows with ``WindowedList``. Decoding refuses a negative start and a
/// count outside 1...``maxCount`` (the action is then refused as `bad_action` and changes
/// nothing), so a page can never make the server encode more rows than that.
///
/// ```swift
/// case .client(.scrolled(let window)):
///   state.window = window
/// ```
public struct ListWindow: Codable, Sendable, Equatable {
  /// The most rows one window holds: a page never has more in its document.
  public static let maxCount = 500

  /// The first row's position in the whole list.
  public private(set) var start: Int
  /// How many rows from `start`.
  public private(set) var count: Int

  /// A window, clamped to a valid one: `start` at least 0, `count` in 1...``maxCount``.
  public init(start: Int = 0, count: Int = 100) {
    self.start = max(0, start)
    self.count = min(max(1, count), Self.maxCount)
  }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    let start = try container.decode(Int.self, forKey: .start)
    let count = try container.decode(Int.self, forKey: .count)
    guard start >= 0 else {
      throw DecodingError.dataCorruptedError(
        forKey: .start, in: container, debugDescription: "must not be negative")
    }
    guard (1...Self.maxCount).contains(count) else {
      throw DecodingError.dataCorruptedError(
        forKey: .count, in: container, debugDescription: "must be from 1 to \(Self.maxCount)")
    }
    self.init(start: start, count: count)
  }

  /// The positions this window shows of a list of `total` rows: it keeps its size and
  /// moves back from the end, so a list that shrank (a filter) still fills the view.
  public func range(in total: Int) -> Range<Int> {
    let first = max(0, min(start, total - count))
    return first..<min(total, first + count)
  }
}
