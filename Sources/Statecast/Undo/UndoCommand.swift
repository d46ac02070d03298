/// A member asking to undo or redo their own last change.
public enum UndoCommand: Equatable, Sendable {
  case undo(Viewer)
  case redo(Viewer)
}
