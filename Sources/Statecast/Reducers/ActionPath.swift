/// How a child's action is embedded into one case of a parent's action, and taken back
/// out: a hand-written case path (no macros).
///
/// The composition combinators use it to route a parent action to a child reducer and
/// to map the child's effects back into parent actions.
///
/// ```swift
/// enum AppAction { case counter(CounterAction), signedOut }
///
/// extension ActionPath where Parent == AppAction, Child == CounterAction {
///   static let counter = ActionPath(embed: AppAction.counter) {
///     if case .counter(let action) = $0 { action } else { nil }
///   }
/// }
/// ```
public struct ActionPath<Parent, Child>: Sendable {
  private let embedChild: @Sendable (Child) -> Parent
  private let extractChild: @Sendable (Parent) -> Child?

  /// Creates a path from the parent case's constructor and its pattern match.
  public init(
    embed: @escaping @Sendable (Child) -> Parent,
    extract: @escaping @Sendable (Parent) -> Child?
  ) {
    self.embedChild = embed
    self.extractChild = extract
  }

  /// Wraps a child action in the parent's case.
  public func embed(_ child: Child) -> Parent {
    embedChild(child)
  }

  /// The child action carried by `parent`, or `nil` when `parent` is another case.
  public func extract(from parent: Parent) -> Child? {
    extractChild(parent)
  }

  /// Extends this path one level deeper.
  public func appending<Grandchild>(_ path: ActionPath<Child, Grandchild>) -> ActionPath<Parent, Grandchild> {
    ActionPath<Parent, Grandchild>(
      embed: { self.embed(path.embed($0)) },
      extract: { self.extract(from: $0).flatMap(path.extract(from:)) }
    )
  }
}
