public import Statecast

extension Board {
  /// What one member sees of a board (see ``Board`` for the JSON).
  public struct ViewState: Encodable, Equatable, Sendable {
    public var items: [ItemView]
    /// The viewer's own draft; `""` when they have none.
    public var myDraft: String
    /// Whether the viewer's draft can be added: it is not blank and the board has room.
    public var canAdd: Bool
    /// Whether the board holds ``maxItems`` items.
    public var isFull: Bool
    public var doneCount: Int
    /// The viewer, as the board records authors; absent in the view for no viewer.
    public var me: Author?
    /// Whether the viewer has a change of their own to undo.
    public var canUndo: Bool
    /// Whether the viewer has an undone change to redo.
    public var canRedo: Bool
    /// Why the viewer's last undo or redo did nothing; `""` otherwise.
    public var undoNotice: String
  }

  /// One row of the list, keyed by the item's id.
  public struct ItemView: Encodable, Equatable, Sendable, Identifiable {
    public var id: String
    public var title: String
    public var done: Bool
    public var authorName: String
    /// Whether the viewer added it.
    public var mine: Bool
    /// Who last changed the title; absent until someone did.
    public var editedByName: String?
  }

  /// Boards differ per viewer: drafts and `mine` flags.
  public static var viewDependsOnViewer: Bool { true }

  /// The board as `viewer` sees it: every item, and of all drafts only their own.
  public static func viewState(_ state: State, for viewer: Viewer) -> ViewState {
    view(of: state, for: viewer)
  }

  /// The board as no member sees it: every item, no draft, nothing marked as mine.
  public static func viewState(_ state: State) -> ViewState {
    view(of: state, for: nil)
  }

  private static func view(of state: State, for viewer: Viewer?) -> ViewState {
    let draft = viewer.flatMap { state.drafts[$0.id] } ?? ""
    let isFull = state.items.count >= maxItems
    return ViewState(
      items: state.items.map { item in
        ItemView(
          id: item.id,
          title: item.title,
          done: item.done,
          authorName: item.author.name,
          mine: item.author.id == viewer?.id,
          editedByName: item.editedBy?.name
        )
      },
      myDraft: draft,
      canAdd: !isFull && !title(from: draft).isEmpty,
      isFull: isFull,
      doneCount: state.items.count(where: \.done),
      me: viewer.map(Author.init),
      canUndo: viewer.map { state.history.canUndo($0.id) } ?? false,
      canRedo: viewer.map { state.history.canRedo($0.id) } ?? false,
      undoNotice: viewer.flatMap { state.history.notice(for: $0.id) } ?? ""
    )
  }
}
