/// A feature that describes, once, everything a server needs to serve it to browsers:
/// its state and actions, the one action type a browser may send and how it is embedded,
/// the view a browser sees, and how a store is made for a browser's join (``Join``) from
/// the feature's dependencies.
///
/// A feature module conforms its namespace, and serving it is then one line
/// (`.perSession("counter", Counter.self, dependencies: live)` in `StatecastServer`), the
/// way TCA's `Reducer` conformances are composed by type rather than spelled out again
/// at every use.
///
/// ```swift
/// extension Counter: Feature {
///   public static func embed(_ action: ClientAction) -> Action { .client(action) }
/// }
/// ```
///
/// `viewState(_:)` and `makeStore(dependencies:join:)` are usually the feature's own
/// functions already. Nothing here depends on a server, so feature modules stay
/// Foundation-only and are tested with `TestStore` alone.
///
/// What has an obvious answer has a default: a feature that needs nothing from outside
/// leaves out `Dependencies` (it is `Void`, and routes take `dependencies: ()`); one that
/// records who sent an action implements only ``embed(_:from:)`` (``embed(_:)`` then
/// embeds as ``Viewer/anonymous``); one that does not implements only ``embed(_:)``.
///
/// A feature's type is what a server's routes hold on to and call from every store's
/// task (`F.embed`, `F.viewState`), so its metatype must be sendable: every ordinary
/// type's is.
public protocol Feature: SendableMetatype {
  /// The whole state of one store.
  associatedtype State: Sendable
  /// Everything that can happen to the store: browser actions, effect results, ticks.
  associatedtype Action: Sendable
  /// The only actions a browser may send, decoded from JSON; internal actions (effect
  /// results, timers) are not in it, so they cannot be forged.
  associatedtype ClientAction: Decodable & Sendable
  /// The projection of the state that browsers see; secrets in the state stay out of it.
  associatedtype ViewState: Encodable & Sendable
  /// What the store's effects need from the outside world (clocks, files, services);
  /// `Void` when it needs nothing.
  associatedtype Dependencies: Sendable = Void

  /// Turns a browser's action into the store's action (usually `.client(action)`). By
  /// default ``embed(_:from:)`` with ``Viewer/anonymous``, for a feature that implements
  /// that one. A feature implements at least one of the two.
  static func embed(_ action: ClientAction) -> Action
  /// Turns a browser's action into the store's action, with who sent it. Implement this
  /// one instead of ``embed(_:)`` when the reducer records authors (`.client(viewer,
  /// action)`); by default it forgets the viewer and calls ``embed(_:)``.
  static func embed(_ action: ClientAction, from viewer: Viewer) -> Action
  /// The view a browser sees of `state`.
  static func viewState(_ state: State) -> ViewState
  /// The view `viewer` sees of `state`, for a view with private parts (a draft, "mine"
  /// flags, redacted fields). By default every viewer sees ``viewState(_:)``; a feature
  /// that implements this sets ``viewDependsOnViewer`` so that the server diffs one view
  /// per distinct viewer instead of one for all.
  static func viewState(_ state: State, for viewer: Viewer) -> ViewState
  /// Whether ``viewState(_:for:)`` differs between viewers (`false` by default).
  static var viewDependsOnViewer: Bool { get }
  /// A new store for `join`, running with `dependencies`.
  ///
  /// The join says who opened the store, on which topic and with which params (see
  /// ``Join``); a feature that needs none of it ignores it. Throwing ``JoinRefused``
  /// refuses the join with its reason. A synchronous, non-throwing implementation
  /// satisfies this requirement too.
  static func makeStore(dependencies: Dependencies, join: Join) async throws -> Store<State, Action>
}

extension Feature {
  public static func embed(_ action: ClientAction) -> Action {
    EmbeddingDefault.enter(Self.self) { embed(action, from: .anonymous) }
  }
  public static func embed(_ action: ClientAction, from viewer: Viewer) -> Action {
    EmbeddingDefault.enter(Self.self) { embed(action) }
  }
  public static func viewState(_ state: State, for viewer: Viewer) -> ViewState { viewState(state) }
  public static var viewDependsOnViewer: Bool { false }
}
