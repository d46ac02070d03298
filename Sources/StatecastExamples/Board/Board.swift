public import Statecast

/// A list shared by everyone in a room: members add, edit, complete, reorder and delete
/// items, each item shows who wrote it, and each member keeps a private draft.
///
/// What it shows: one store shared by a room, where every action arrives with the
/// ``Viewer`` who sent it (`.client(viewer, action)`), so the reducer records authors,
/// and a view made per viewer (``viewState(_:for:)``), so one member's unsent draft,
/// kept on the server as they type, reaches nobody else. The whole state is `Codable`,
/// so the room can be kept durably and restored.
///
/// ## Concurrent edits
/// Members act at the same time; the reducer applies their actions one at a time, in
/// the order the room receives them, and that order decides. Actions name items by id,
/// never by position, so an action still finds its item after others moved it.
/// - **Last write wins, per field.** Of two edits of one title, the later stays. A title
///   edit and a completion of the same item are different fields: both stay.
/// - **Completion states the wanted value** (`setDone(id:done:)`, not a toggle), so two
///   members ticking the same box at once agree instead of cancelling each other out.
/// - **Delete wins.** An edit, completion or move of an item that is gone is ignored,
///   whichever of the two was sent first.
/// - **Moves are clamped.** `move(id:toIndex:)` puts the item at that position of the
///   list as it is when the move is applied, clamped to the list; `moveBy(id:offset:)`
///   moves it from wherever it is then, so "one up" stays one up after others reordered.
/// - **Adds never conflict**: the server gives each item a new id, and items are
///   appended in the order they arrive.
///
/// ## Limits
/// Titles and drafts are cut to ``maxTitleLength`` characters (UTF-16 code units, as a
/// page's `maxlength` counts them, cut between characters); surrounding whitespace is
/// trimmed from titles, and a blank title is ignored. A board holds at most
/// ``maxItems`` items: adding beyond that is ignored and the draft is kept. At most
/// ``maxDrafts`` members keep a draft at once; a draft beyond that is not kept.
///
/// ## View (JSON), per viewer
/// ```json
/// {"items": [{"id": "3f2a…", "title": "Buy milk", "done": false,
///             "authorName": "Ada", "mine": true,
///             "editedByName": "Ben"}],     // absent until someone changes the title
///  "myDraft": "Call the pl",                // this viewer's draft only; "" without one
///  "canAdd": true,                          // a non-blank draft and room for it
///  "isFull": false,                         // maxItems reached
///  "doneCount": 0,
///  "me": {"id": "u-1", "name": "Ada"}}      // absent in the view for no viewer
/// ```
/// The view has no top-level `presence` key: a server adds the room's presence there.
///
/// ## Client actions
/// `{"draftChanged":{"text":"Call the pl"}}`, `{"addDraft":{}}` (adds the sender's draft
/// and clears it), `{"edit":{"id":"3f2a…","title":"Buy oat milk"}}`,
/// `{"setDone":{"id":"3f2a…","done":true}}`, `{"move":{"id":"3f2a…","toIndex":0}}`,
/// `{"moveBy":{"id":"3f2a…","offset":-1}}`, `{"delete":{"id":"3f2a…"}}`, `{"undo":{}}`,
/// `{"redo":{}}`.
///
/// ## Undo and redo
/// Each member undoes their own changes (adds, edits, completions, moves, deletes; not
/// drafts) and redoes what they undid, by the rules of ``UndoHistory``: a change someone
/// else has touched since (the same item's same field, or the item itself) is skipped
/// and the member is told who changed it.
public enum Board: Feature {
  /// The longest title or draft kept, in UTF-16 code units.
  public static let maxTitleLength = 200
  /// The most items a board holds.
  public static let maxItems = 500
  /// The most members whose drafts are kept at once.
  public static let maxDrafts = 1_000

  /// The whole state of one room's board; `Codable`, so it can be stored and restored.
  public struct State: Codable, Equatable, Sendable {
    /// The items in display order.
    public var items: [Item]
    /// Each member's unsent draft, by ``Viewer/id``; a member without one has no entry.
    /// Private: only its own member's view shows it.
    public var drafts: [String: String]
    /// What each member can undo and redo (see ``undoableReducer(dependencies:)``).
    /// Server-only: a member's view shows only whether they can undo or redo.
    public var history: UndoHistory<Change>

    public init(
      items: [Item] = [], drafts: [String: String] = [:], history: UndoHistory<Change> = UndoHistory()
    ) {
      self.items = items
      self.drafts = drafts
      self.history = history
    }

    /// Boards stored before undo existed have no history: they start with an empty one.
    public init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: CodingKeys.self)
      items = try container.decode([Item].self, forKey: .items)
      drafts = try container.decode([String: String].self, forKey: .drafts)
      history = try container.decodeIfPresent(UndoHistory<Change>.self, forKey: .history) ?? UndoHistory()
    }

    /// The position of the item with `id`, if it is on the board.
    public func index(of id: String) -> Int? {
      items.firstIndex { $0.id == id }
    }
  }

  /// One entry of the list.
  public struct Item: Codable, Equatable, Sendable, Identifiable {
    /// Given by the server when the item is added; never reused.
    public var id: String
    public var title: String
    public var done: Bool
    /// Who added it.
    public var author: Author
    /// Who last changed its title, if anyone did.
    public var editedBy: Author?

    public init(id: String, title: String, done: Bool = false, author: Author, editedBy: Author? = nil) {
      self.id = id
      self.title = title
      self.done = done
      self.author = author
      self.editedBy = editedBy
    }
  }

  /// A member as the board records them: the viewer's id and the name others see.
  public struct Author: Codable, Equatable, Sendable {
    public var id: String
    public var name: String

    public init(id: String, name: String) {
      self.id = id
      self.name = name
    }

    public init(_ viewer: Viewer) {
      self.init(id: viewer.id, name: viewer.name)
    }
  }

  /// Everything that can happen to a board: members' actions, each with its sender.
  public enum Action: Equatable, Sendable {
    case client(Viewer, ClientAction)
    /// A step of a member's undo or redo; the server's own, a browser cannot send it.
    case apply(Viewer, Change)
  }

  /// What a browser may send, decoded from e.g. `{"setDone":{"id":"3f2a…","done":true}}`.
  public enum ClientAction: Codable, Equatable, Sendable {
    /// The text of the sender's "new item" box changed; kept as their draft.
    case draftChanged(text: String)
    /// Adds the sender's draft as an item and clears the draft.
    case addDraft
    /// Replaces an item's title.
    case edit(id: String, title: String)
    /// Marks an item done or not done.
    case setDone(id: String, done: Bool)
    /// Moves an item to a position of the list (clamped to the list).
    case move(id: String, toIndex: Int)
    /// Moves an item by `offset` positions from where it is (negative is up).
    case moveBy(id: String, offset: Int)
    case delete(id: String)
    /// Takes back the sender's own last change that is still theirs to take back.
    case undo
    /// Makes again the change the sender's last undo took back.
    case redo
  }
}

extension Board {
  /// A browser's action enters the store with its sender, so the reducer can record
  /// authors and keep drafts apart.
  /// (An action with no browser behind it, from tools and tests, goes through the
  /// default `embed(_:)`, as ``Viewer/anonymous``.)
  public static func embed(_ action: ClientAction, from viewer: Viewer) -> Action {
    .client(viewer, action)
  }
}
