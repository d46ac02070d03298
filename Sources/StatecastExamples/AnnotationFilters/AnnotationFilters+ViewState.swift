extension AnnotationFilters {
  /// What a browser sees of the filters (see ``AnnotationFilters`` for the JSON).
  public struct ViewState: Encodable, Equatable, Sendable {
    public var isFiltering: Bool
    public var groups: [GroupRow]
    public var openGroup: OpenGroup?
    public var visibleAnnotations: [AnnotationRow]
    public var visibleCount: Int
    public var totalCount: Int
    public var summary: String
  }

  /// A group in the list of groups.
  public struct GroupRow: Encodable, Equatable, Sendable {
    public var id: String
    public var title: String
    public var selectedCount: Int
    public var filterCount: Int
  }

  /// The group the person entered, with its filters.
  public struct OpenGroup: Encodable, Equatable, Sendable {
    public var id: String
    public var title: String
    public var filters: [FilterRow]
  }

  /// One kind in the open group.
  public struct FilterRow: Encodable, Equatable, Sendable {
    public var id: String
    public var title: String
    public var isSelected: Bool
    /// How many annotations of the drawing are of this kind.
    public var count: Int
  }

  /// One visible annotation.
  public struct AnnotationRow: Encodable, Equatable, Sendable {
    public var id: String
    public var title: String
    public var kind: String
    public var kindTitle: String
  }

  /// Projects the state onto what the page shows.
  public static func viewState(_ state: State) -> ViewState {
    var kindTitles: [String: String] = [:]
    for group in state.groups {
      for kind in group.kinds { kindTitles[kind.id] = kind.title }
    }
    let visible = state.visibleAnnotations
    return ViewState(
      isFiltering: state.isFiltering,
      groups: state.groups.map { group in
        GroupRow(
          id: group.id, title: group.title,
          selectedCount: group.kinds.count { state.selectedKinds.contains($0.id) },
          filterCount: group.kinds.count)
      },
      openGroup: state.openGroup.map { group in
        OpenGroup(
          id: group.id, title: group.title,
          filters: group.kinds.map { kind in
            FilterRow(
              id: kind.id, title: kind.title, isSelected: state.selectedKinds.contains(kind.id),
              count: state.annotations.count { $0.kind == kind.id })
          })
      },
      visibleAnnotations: visible.map { annotation in
        AnnotationRow(
          id: annotation.id, title: annotation.title, kind: annotation.kind,
          kindTitle: kindTitles[annotation.kind] ?? annotation.kind)
      },
      visibleCount: visible.count,
      totalCount: state.annotations.count,
      summary: state.isFiltering
        ? "Showing \(visible.count) of \(state.annotations.count) annotations"
        : "Showing all \(state.annotations.count) annotations"
    )
  }
}
