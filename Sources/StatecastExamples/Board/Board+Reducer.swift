public import Statecast

extension Board {
  /// The board's logic: pure but for new ids, applying members' actions one at a time
  /// (see ``Board`` for how concurrent edits resolve).
  ///
  /// ```swift
  /// let store = Store(initialState: Board.State(), reducer: Board.reducer(dependencies: .live()))
  /// ```
  public static func reducer(dependencies: Dependencies) -> Reducer<State, Action> {
    Reducer { state, action in
      switch action {
      case .client(let viewer, .draftChanged(let text)):
        let draft = clipped(text, to: maxTitleLength)
        if draft.isEmpty {
          state.drafts[viewer.id] = nil
        } else if state.drafts[viewer.id] != nil || state.drafts.count < maxDrafts {
          state.drafts[viewer.id] = draft
        }

      case .client(let viewer, .addDraft):
        let title = title(from: state.drafts[viewer.id] ?? "")
        guard !title.isEmpty, state.items.count < maxItems else { return .none }
        let id = dependencies.makeID()
        guard state.index(of: id) == nil else { return .none }
        state.items.append(Item(id: id, title: title, author: Author(viewer)))
        state.drafts[viewer.id] = nil

      case .client(let viewer, .edit(let id, let text)):
        let title = title(from: text)
        guard !title.isEmpty, let index = state.index(of: id), state.items[index].title != title else {
          return .none
        }
        state.items[index].title = title
        state.items[index].editedBy = Author(viewer)

      case .client(_, .setDone(let id, let done)):
        guard let index = state.index(of: id) else { return .none }
        state.items[index].done = done

      case .client(_, .move(let id, let toIndex)):
        guard let from = state.index(of: id) else { return .none }
        move(&state.items, from: from, to: toIndex)

      case .client(_, .moveBy(let id, let offset)):
        guard let from = state.index(of: id) else { return .none }
        let (target, overflow) = from.addingReportingOverflow(offset)
        move(&state.items, from: from, to: overflow ? (offset > 0 ? Int.max : Int.min) : target)

      case .client(_, .delete(let id)):
        guard let index = state.index(of: id) else { return .none }
        state.items.remove(at: index)

      case .client(_, .undo), .client(_, .redo):
        // Handled by `undoableReducer(dependencies:)`, around this one.
        break

      case .apply(_, let change):
        apply(change, to: &state)
      }
      return .none
    }
  }

  /// Moves the item at `from` to `to`, clamped to the list's positions.
  private static func move(_ items: inout [Item], from: Int, to: Int) {
    let target = min(max(to, 0), items.count - 1)
    guard target != from else { return }
    items.insert(items.remove(at: from), at: target)
  }
}
