extension AnnotationFilters {
  /// The drawing the filters work on: its groups of kinds and its annotations.
  ///
  /// The feature has no effects; what it depends on is data, passed in so that tests
  /// use a drawing of their own.
  public struct Dependencies: Sendable {
    public var groups: [FilterGroup]
    public var annotations: [Annotation]

    public init(groups: [FilterGroup], annotations: [Annotation]) {
      self.groups = groups
      self.annotations = annotations
    }

    /// A sample drawing: a floor plan with issues, markups and media.
    public static func live() -> Self {
      Self(
        groups: [
          FilterGroup(
            id: "issues", title: "Issues",
            kinds: [
              AnnotationKind(id: "open-issue", title: "Open issues"),
              AnnotationKind(id: "closed-issue", title: "Closed issues"),
            ]),
          FilterGroup(
            id: "markups", title: "Markups",
            kinds: [
              AnnotationKind(id: "cloud", title: "Clouds"),
              AnnotationKind(id: "arrow", title: "Arrows"),
              AnnotationKind(id: "text", title: "Text"),
            ]),
          FilterGroup(
            id: "media", title: "Media",
            kinds: [
              AnnotationKind(id: "photo", title: "Photos"),
              AnnotationKind(id: "link", title: "Document links"),
            ]),
        ],
        annotations: [
          Annotation(id: "a1", title: "Crack in slab near column C4", kind: "open-issue"),
          Annotation(id: "a2", title: "Missing fire stop, riser 2", kind: "open-issue"),
          Annotation(id: "a3", title: "Door swing reversed, room 104", kind: "closed-issue"),
          Annotation(id: "a4", title: "Revise partition layout", kind: "cloud"),
          Annotation(id: "a5", title: "Duct routing", kind: "arrow"),
          Annotation(id: "a6", title: "Verify ceiling height 2.7 m", kind: "text"),
          Annotation(id: "a7", title: "Lobby before drywall", kind: "photo"),
          Annotation(id: "a8", title: "Electrical panel", kind: "photo"),
          Annotation(id: "a9", title: "Spec section 09 21 16", kind: "link"),
        ]
      )
    }
  }
}
