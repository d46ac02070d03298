public import Statecast

extension Board {
  /// One step that reverses a member's change: what undo and redo send through the
  /// reducer (as ``Action/apply(_:_:)``), kept in the board's ``UndoHistory``.
  public enum Change: Codable, Equatable, Sendable {
    /// Takes an item off the board (undoes adding it).
    case remove(id: String)
    /// Puts an item back at a position, clamped to the list (undoes deleting it).
    case insert(Item, at: Int)
    /// Sets an item's title and who last edited it (undoes an edit).
    case setTitle(id: String, title: String, editedBy: Author?)
    /// Sets whether an item is done (undoes ticking it).
    case setDone(id: String, done: Bool)
    /// Moves an item to a position, clamped to the list (undoes a move).
    case move(id: String, toIndex: Int)

    /// The item the step is about.
    var itemID: String {
      switch self {
      case .remove(let id), .setTitle(let id, _, _), .setDone(let id, _), .move(let id, _): id
      case .insert(let item, _): item.id
      }
    }
  }

  /// The board with undo and redo for each member: ``reducer(dependencies:)`` wrapped so
  /// that each change is recorded with the step that reverses it.
  ///
  /// What a change touches, for the rule that skips a change someone else touched since:
  /// adding or deleting an item touches the whole item (`items/<id>`); an edit its title
  /// (`items/<id>/title`), ticking it `items/<id>/done`, moving it
  /// `items/<id>/position`. So Ada's undo of her edit is skipped once Ben has edited the
  /// same title or deleted the item, and goes ahead when Ben only ticked it.
  public static func undoableReducer(dependencies: Dependencies) -> Reducer<State, Action> {
    .undoable(
      reducer(dependencies: dependencies),
      history: \.history,
      command: { action in
        switch action {
        case .client(let viewer, .undo): .undo(viewer)
        case .client(let viewer, .redo): .redo(viewer)
        default: nil
        }
      },
      change: { action, before, after in undoable(action, before: before, after: after) },
      action: { step, viewer in .apply(viewer, step) }
    )
  }

  /// Who changed what by `action`, and the step that reverses it; `nil` when the action
  /// changed no item (a draft, an edit to the same title, an item that is gone).
  static func undoable(_ action: Action, before: State, after: State) -> (Viewer, Undoable<Change>)? {
    let viewer: Viewer
    let id: String?
    switch action {
    case .client(let sender, .addDraft):
      viewer = sender
      id = after.items.last { before.index(of: $0.id) == nil }?.id
    case .client(let sender, .edit(let itemID, _)), .client(let sender, .setDone(let itemID, _)),
      .client(let sender, .move(let itemID, _)), .client(let sender, .moveBy(let itemID, _)),
      .client(let sender, .delete(let itemID)):
      viewer = sender
      id = itemID
    case .client(_, .draftChanged), .client(_, .undo), .client(_, .redo):
      return nil
    case .apply(let sender, let change):
      viewer = sender
      id = change.itemID
    }
    guard let id, before.items != after.items else { return nil }
    return inverse(of: id, before: before, after: after).map { (viewer, $0) }
  }

  /// The step that takes item `id` from how it is in `after` back to how it is in
  /// `before`. Each action changes one thing of one item, so one step is enough.
  private static func inverse(of id: String, before: State, after: State) -> Undoable<Change>? {
    switch (before.index(of: id), after.index(of: id)) {
    case (nil, nil):
      return nil
    case (nil, let added?):
      let item = after.items[added]
      return Undoable(.remove(id: id), touching: ["items/\(id)"], label: quoted(item.title))
    case (let removed?, nil):
      let item = before.items[removed]
      return Undoable(.insert(item, at: removed), touching: ["items/\(id)"], label: quoted(item.title))
    case (let from?, let to?):
      let old = before.items[from]
      let new = after.items[to]
      let label = quoted(old.title)
      if old.title != new.title || old.editedBy != new.editedBy {
        return Undoable(
          .setTitle(id: id, title: old.title, editedBy: old.editedBy), touching: ["items/\(id)/title"],
          label: label)
      }
      if old.done != new.done {
        return Undoable(.setDone(id: id, done: old.done), touching: ["items/\(id)/done"], label: label)
      }
      if from != to {
        return Undoable(.move(id: id, toIndex: from), touching: ["items/\(id)/position"], label: label)
      }
      return nil
    }
  }

  /// Applies an undo or redo step by the board's rules: an item that is gone stays gone,
  /// positions are clamped, an item already on the board is not put there twice, and a
  /// full board takes no item back.
  static func apply(_ change: Change, to state: inout State) {
    switch change {
    case .remove(let id):
      guard let index = state.index(of: id) else { return }
      state.items.remove(at: index)
    case .insert(let item, let position):
      guard state.index(of: item.id) == nil, state.items.count < maxItems else { return }
      state.items.insert(item, at: min(max(position, 0), state.items.count))
    case .setTitle(let id, let title, let editedBy):
      guard let index = state.index(of: id) else { return }
      state.items[index].title = title
      state.items[index].editedBy = editedBy
    case .setDone(let id, let done):
      guard let index = state.index(of: id) else { return }
      state.items[index].done = done
    case .move(let id, let toIndex):
      guard let from = state.index(of: id) else { return }
      let target = min(max(toIndex, 0), state.items.count - 1)
      guard target != from else { return }
      state.items.insert(state.items.remove(at: from), at: target)
    }
  }

  /// An item's title as a notice names it.
  private static func quoted(_ title: String) -> String { "“\(title)”" }
}
