extension Reducer {
  /// A reducer whose members can each undo and redo their own changes (the rules are in
  /// ``UndoHistory``).
  ///
  /// Why a step and not a stored old state: in a shared store, going back to an earlier
  /// state would take back everyone's changes since. The feature instead says, for each
  /// change, which step reverses it (``Undoable``); undoing sends that step through
  /// `base` like any other action, so the feature's rules (limits, "delete wins")
  /// apply to undo too, and the history lives in the state, where a durable store's
  /// journal keeps it.
  ///
  /// ```swift
  /// Reducer.undoable(
  ///   reducer(dependencies: dependencies),
  ///   history: \.history,
  ///   command: { action in
  ///     switch action {
  ///     case .client(let viewer, .undo): .undo(viewer)
  ///     case .client(let viewer, .redo): .redo(viewer)
  ///     default: nil
  ///     }
  ///   },
  ///   change: { action, before, after in undoable(action, before: before, after: after) },
  ///   action: { step, viewer in .apply(viewer, step) }
  /// )
  /// ```
  ///
  /// - Parameters:
  ///   - base: the feature's reducer; it also handles the actions `makeAction` makes.
  ///   - history: where the state keeps its ``UndoHistory``.
  ///   - command: whether an action asks to undo or redo, and for whom.
  ///   - change: for an action `base` has just applied (`before` and `after` are the
  ///     states around it), who made the change and how to undo it; `nil` for what
  ///     cannot or need not be undone (a draft, a change that changed nothing). It is
  ///     also asked about the actions `makeAction` makes: its answer for an applied undo
  ///     step is what redoes it (and for a redo, what undoes it again), so answering
  ///     `nil` for them leaves nothing to redo.
  ///   - makeAction: the action that applies a step on behalf of a member.
  public static func undoable<Step>(
    _ base: Reducer,
    history: any WritableKeyPath<State, UndoHistory<Step>> & Sendable,
    command: @escaping @Sendable (Action) -> UndoCommand?,
    change: @escaping @Sendable (Action, _ before: State, _ after: State) -> (Viewer, Undoable<Step>)?,
    action makeAction: @escaping @Sendable (Step, Viewer) -> Action
  ) -> Self {
    Self { state, action in
      guard let command = command(action) else {
        let before = state
        let effect = base.reduce(into: &state, action: action)
        if let (member, undoable) = change(action, before, state) {
          state[keyPath: history].record(undoable, by: member)
        }
        return effect
      }
      let (member, undoing) =
        switch command {
        case .undo(let member): (member, true)
        case .redo(let member): (member, false)
        }
      let taken =
        undoing
        ? state[keyPath: history].takeUndo(for: member.id) : state[keyPath: history].takeRedo(for: member.id)
      guard let entry = taken else { return .none }
      guard entry.overwrittenBy == nil else {
        state[keyPath: history].skip(entry, for: member.id, undoing: undoing)
        return .none
      }
      let stepAction = makeAction(entry.step, member)
      let before = state
      let effect = base.reduce(into: &state, action: stepAction)
      if let (_, inverse) = change(stepAction, before, state) {
        if undoing {
          state[keyPath: history].recordUndone(inverse, by: member)
        } else {
          state[keyPath: history].recordRedone(inverse, by: member)
        }
      }
      return effect
    }
  }
}
