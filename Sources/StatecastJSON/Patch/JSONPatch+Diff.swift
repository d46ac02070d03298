extension JSONPatch {
  /// The patch that turns `old` into `new`: `applied(to: old) == new` always holds, and
  /// `diff(from: a, to: a)` is empty.
  ///
  /// Small changes give small patches:
  /// - objects are compared member by member, so one changed field is one `replace`;
  /// - arrays skip their common prefix and suffix, so one row inserted at the top is one
  ///   `add` and one removed row is one `remove`;
  /// - when every element in the changed part of an array is an object with a unique
  ///   `"id"` member, elements are matched by `id`: changed rows are diffed in place, new
  ///   rows added, gone rows removed, and a moved row is one `remove` plus one `add`
  ///   (the fewest rows are moved: those outside a longest run kept in order);
  /// - otherwise elements are compared position by position.
  ///
  /// Subtrees that are the same storage (as the ``JSONViewTracker`` produces for
  /// unchanged parts of a view) are skipped without being walked.
  public static func diff(from old: JSON, to new: JSON) -> JSONPatch {
    var differ = Differ()
    differ.diff(old, new)
    return JSONPatch(differ.operations)
  }
}
