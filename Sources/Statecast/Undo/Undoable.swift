/// How a feature takes one change back: the step that undoes it, what the change
/// touched, and a few words naming it for a member's notice.
///
/// A feature declares one for every change a member can undo (see
/// ``Reducer/undoable(_:history:command:change:action:)``). The step is a value of the
/// feature's own `Codable` type, kept in the state's ``UndoHistory``, and runs through
/// the feature's reducer like any action, so the feature's invariants hold for undo too.
///
/// ```swift
/// // Adding the item "Buy milk" is undone by removing it.
/// Undoable(.remove(id: item.id), touching: ["items/\(item.id)"], label: "“Buy milk”")
/// ```
public struct Undoable<Step: Codable & Equatable & Sendable>: Codable, Equatable, Sendable {
  /// The step that takes the change back.
  public var step: Step
  /// What the change touched, as slash-separated paths (`items/3f2a/title`). A path
  /// also covers everything under it: `items/3f2a` overlaps `items/3f2a/title`.
  public var targets: [String]
  /// What the change was about, in a member's words (an item's title).
  public var label: String
  /// The name of the member who changed one of ``targets`` after this change was
  /// recorded; such a step is skipped, never applied (see ``UndoHistory``).
  public var overwrittenBy: String?

  public init(_ step: Step, touching targets: [String], label: String) {
    self.step = step
    self.targets = targets
    self.label = label
  }

  /// Whether this change and one touching `others` changed a part of the same thing.
  func overlaps(_ others: [String]) -> Bool {
    targets.contains { mine in
      others.contains { other in
        mine == other || mine.hasPrefix(other + "/") || other.hasPrefix(mine + "/")
      }
    }
  }
}
