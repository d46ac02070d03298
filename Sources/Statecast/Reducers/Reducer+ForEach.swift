extension Reducer {
  /// Runs an element reducer for the one element of a collection that an action names
  /// by id, then this reducer.
  ///
  /// Rows of a list are the typical use: the parent action case carries the row's id and
  /// the row's action. The element reducer runs first, so this reducer sees the updated
  /// element (and may, for instance, remove it). An action for an id that is no longer
  /// in the collection is ignored: in a shared store another user may have removed the
  /// row a moment before. Elements are found by a linear search.
  ///
  /// ```swift
  /// enum ListAction { case row(id: Row.ID, action: RowAction), addTapped }
  /// let list = listCore.forEach(\.rows, action: .row, element: rowReducer)
  /// ```
  public func forEach<Element: Identifiable & Sendable, ElementAction: Sendable>(
    _ toElements: any WritableKeyPath<State, [Element]> & Sendable,
    action toElementAction: ActionPath<Action, (id: Element.ID, action: ElementAction)>,
    element: Reducer<Element, ElementAction>
  ) -> Self where Element.ID: Sendable {
    Self { state, action in
      var elementEffect = Effect<Action>.none
      if let (id, elementAction) = toElementAction.extract(from: action),
        let index = state[keyPath: toElements].firstIndex(of: id)
      {
        elementEffect = element.reduce(into: &state[keyPath: toElements][index], action: elementAction)
          .map { toElementAction.embed((id: id, action: $0)) }
      }
      let effect = self.reduce(into: &state, action: action)
      return elementEffect.isNone ? effect : .merge(elementEffect, effect)
    }
  }
}

extension Array where Element: Identifiable {
  /// The index of the element with `id`, by a linear search.
  fileprivate func firstIndex(of id: Element.ID) -> Index? {
    for index in indices where self[index].id == id { return index }
    return nil
  }
}
