public import Statecast

extension AnnotationFilters {
  /// The filter logic; it returns no effects.
  public static let reducer = Reducer<State, Action> { state, action in
    switch action {
    case .client(.toggle(let kind)):
      guard state.isKnownKind(kind) else { return .none }
      if state.selectedKinds.remove(kind) == nil {
        state.selectedKinds.insert(kind)
      }
    case .client(.enterGroup(let id)):
      guard state.groups.contains(where: { $0.id == id }) else { return .none }
      state.openGroupID = id
    case .client(.leaveGroup):
      state.openGroupID = nil
    case .client(.reset):
      state.selectedKinds = []
    }
    return .none
  }

  /// A store for one browser over the drawing in `dependencies`.
  public static func makeStore(dependencies: Dependencies, join: Join) -> Store<State, Action> {
    Store(
      initialState: State(groups: dependencies.groups, annotations: dependencies.annotations),
      reducer: reducer)
  }
}
