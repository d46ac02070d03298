import Foundation

extension Board {
  /// What a board needs from the outside world: new item ids, replaced by a
  /// predictable sequence in tests.
  public struct Dependencies: Sendable {
    /// A new id, unique among the board's items.
    public var makeID: @Sendable () -> String

    public init(makeID: @escaping @Sendable () -> String) {
      self.makeID = makeID
    }

    /// Random UUIDs, lowercased.
    public static func live() -> Self {
      Self(makeID: { UUID().uuidString.lowercased() })
    }
  }
}
