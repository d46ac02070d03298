/// What each member of a store can undo and redo: their own changes only, kept in the
/// store's state, so a durable room journals it with everything else and it survives
/// reconnects and restarts.
///
/// ## The rules
/// - **Each member undoes their own changes**, newest first, and redoes what they undid;
///   another member's changes stay. A new change of a member empties their redo list.
/// - **Undo and redo are actions.** The step a change declared (``Undoable``) is sent
///   through the feature's reducer, whose rules decide what it does; its own inverse
///   becomes the redo (and a redo's inverse the undo again).
/// - **Someone else changed it since: skipped, and said so.** When another member
///   changes anything a recorded change touched (the same path, or one above or below
///   it), that entry is marked. Undoing or redoing a marked entry applies nothing: the
///   entry is dropped and the member's ``notice(for:)`` names who changed it; their next
///   undo goes on with the change before. (Liveblocks' history applies a user's undo
///   even over another user's later change to the same key, last writer wins; here the
///   later change of someone else is never silently reverted.)
/// - **Bounded.** Each member keeps at most ``depth`` undo and ``depth`` redo entries
///   (the oldest go first), and the history holds at most ``memberLimit`` members (the
///   one idle longest is forgotten first). The history is part of the state, so its
///   size counts: at most `2 × depth × memberLimit` entries, each holding one step.
public struct UndoHistory<Step: Codable & Equatable & Sendable>: Codable, Equatable, Sendable {
  /// One member's lists and last notice.
  public struct Member: Codable, Equatable, Sendable {
    /// Changes this member can undo, oldest first.
    public var undo: [Undoable<Step>] = []
    /// Undone changes this member can redo, oldest first.
    public var redo: [Undoable<Step>] = []
    /// Why the member's last undo or redo did nothing, until they act again.
    public var notice: String?
    /// The history's clock at this member's last change: the idlest is dropped first.
    public var lastActive: Int = 0
  }

  /// The most entries in each of a member's two lists.
  public var depth: Int
  /// The most members whose history is kept.
  public var memberLimit: Int
  /// Each member's history, by ``Viewer/id``.
  public private(set) var members: [String: Member] = [:]
  /// Counts recorded changes; orders members by activity.
  public private(set) var clock: Int = 0

  public init(depth: Int = 20, memberLimit: Int = 50) {
    self.depth = max(depth, 1)
    self.memberLimit = max(memberLimit, 1)
  }

  /// Whether `member` has a change to undo.
  public func canUndo(_ member: String) -> Bool { members[member]?.undo.isEmpty == false }
  /// Whether `member` has an undone change to redo.
  public func canRedo(_ member: String) -> Bool { members[member]?.redo.isEmpty == false }
  /// Why `member`'s last undo or redo did nothing, if it did nothing.
  public func notice(for member: String) -> String? { members[member]?.notice }

  /// Records a change `member` made (not by undo or redo): it can be undone, their redo
  /// list is emptied, and other members' entries touching the same thing are marked.
  public mutating func record(_ change: Undoable<Step>, by member: Viewer) {
    touch(change.targets, by: member)
    let depth = depth
    update(member.id) { lists in
      lists.redo = []
      Self.push(change, onto: &lists.undo, depth: depth)
    }
  }

  /// Takes `member`'s newest undo entry off their list; `nil` when they have none.
  ///
  /// This and the three below are what ``Reducer/undoable(_:history:command:change:action:)``
  /// does on an undo or redo: public so that a test asserting every state change with
  /// `TestStore` can describe the history's part too.
  @discardableResult
  public mutating func takeUndo(for member: String) -> Undoable<Step>? {
    members[member]?.notice = nil
    return members[member]?.undo.popLast()
  }

  /// Takes `member`'s newest redo entry off their list; `nil` when they have none.
  @discardableResult
  public mutating func takeRedo(for member: String) -> Undoable<Step>? {
    members[member]?.notice = nil
    return members[member]?.redo.popLast()
  }

  /// Records what an applied undo step did, as the entry that redoes it.
  public mutating func recordUndone(_ inverse: Undoable<Step>, by member: Viewer) {
    touch(inverse.targets, by: member)
    let depth = depth
    update(member.id) { Self.push(inverse, onto: &$0.redo, depth: depth) }
  }

  /// Records what an applied redo step did, as the entry that undoes it again.
  public mutating func recordRedone(_ inverse: Undoable<Step>, by member: Viewer) {
    touch(inverse.targets, by: member)
    let depth = depth
    update(member.id) { Self.push(inverse, onto: &$0.undo, depth: depth) }
  }

  /// Tells `member` that a skipped entry was not applied, and why (the entry was taken
  /// with ``takeUndo(for:)`` or ``takeRedo(for:)``; `undoing` says which).
  public mutating func skip(_ entry: Undoable<Step>, for member: String, undoing: Bool) {
    let verb = undoing ? "undone" : "redone"
    let who = entry.overwrittenBy ?? "Someone"
    members[member]?.notice = "\(who) changed \(entry.label) since, so it was not \(verb)."
  }

  /// Marks every other member's entries that overlap `targets` as overwritten.
  private mutating func touch(_ targets: [String], by member: Viewer) {
    for (id, var lists) in members where id != member.id {
      for index in lists.undo.indices where lists.undo[index].overlaps(targets) {
        lists.undo[index].overwrittenBy = member.name
      }
      for index in lists.redo.indices where lists.redo[index].overlaps(targets) {
        lists.redo[index].overwrittenBy = member.name
      }
      members[id] = lists
    }
  }

  /// Changes `member`'s lists, stamps their activity, and keeps the member bound.
  private mutating func update(_ member: String, _ change: (inout Member) -> Void) {
    clock += 1
    var lists = members[member] ?? Member()
    lists.notice = nil
    lists.lastActive = clock
    change(&lists)
    members[member] = lists
    while members.count > memberLimit,
      let idlest = members.min(by: { $0.value.lastActive < $1.value.lastActive })?.key
    {
      members[idlest] = nil
    }
  }

  private static func push(_ entry: Undoable<Step>, onto list: inout [Undoable<Step>], depth: Int) {
    list.append(entry)
    if list.count > depth { list.removeFirst(list.count - depth) }
  }
}
