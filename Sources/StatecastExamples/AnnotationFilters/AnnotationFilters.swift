public import Statecast

/// Filters over the annotations of a construction drawing: PlanGrid's Flux example.
///
/// What it shows: actions describe intent (toggle a kind, enter or leave a group,
/// reset), the store owns the state, and the page only observes a projection of it.
/// `isFiltering` is a *query* on the state, so the page enables its "clear" button from
/// one boolean instead of inspecting the filters. The feature is pure: no effects, and
/// it is tested by sending actions and reading state.
///
/// ## View (JSON)
/// ```json
/// {"isFiltering": true,
///  "groups": [{"id": "issues", "title": "Issues", "selectedCount": 1, "filterCount": 2}],
///  "openGroup": {"id": "issues", "title": "Issues",       // absent when no group is open
///                "filters": [{"id": "open-issue", "title": "Open issues", "isSelected": true, "count": 3}]},
///  "visibleAnnotations": [{"id": "a1", "title": "Crack in slab", "kind": "open-issue", "kindTitle": "Open issues"}],
///  "visibleCount": 3, "totalCount": 9,
///  "summary": "Showing 3 of 9 annotations"}
/// ```
///
/// ## Client actions
/// `{"toggle":{"kind":"open-issue"}}`, `{"enterGroup":{"id":"issues"}}`,
/// `{"leaveGroup":{}}`, `{"reset":{}}`.
///
/// With no kind selected every annotation shows; selecting kinds shows only those.
public enum AnnotationFilters: Feature {
  /// The whole state of the filter screen.
  public struct State: Equatable, Sendable {
    /// The groups of annotation kinds, in display order.
    public var groups: [FilterGroup]
    /// The annotations of the drawing.
    public var annotations: [Annotation]
    /// The kinds selected; empty means no filtering.
    public var selectedKinds: Set<String>
    /// The group whose kinds are listed, if the person entered one.
    public var openGroupID: String?

    public init(
      groups: [FilterGroup],
      annotations: [Annotation],
      selectedKinds: Set<String> = [],
      openGroupID: String? = nil
    ) {
      self.groups = groups
      self.annotations = annotations
      self.selectedKinds = selectedKinds
      self.openGroupID = openGroupID
    }

    /// Whether any filter is active: the query the page's "clear" button follows.
    public var isFiltering: Bool { !selectedKinds.isEmpty }

    /// The annotations that the filters let through, in drawing order.
    public var visibleAnnotations: [Annotation] {
      isFiltering ? annotations.filter { selectedKinds.contains($0.kind) } : annotations
    }

    /// The group the person entered, if any.
    public var openGroup: FilterGroup? {
      openGroupID.flatMap { id in groups.first { $0.id == id } }
    }

    /// Whether `kind` names a kind of one of the groups.
    public func isKnownKind(_ kind: String) -> Bool {
      groups.contains { group in group.kinds.contains { $0.id == kind } }
    }
  }

  /// Everything that can happen to the filters; all of it comes from the browser.
  public enum Action: Equatable, Sendable {
    case client(ClientAction)
  }

  /// What a browser may send, decoded from e.g. `{"toggle":{"kind":"photo"}}`.
  public enum ClientAction: Codable, Equatable, Sendable {
    case toggle(kind: String)
    case enterGroup(id: String)
    case leaveGroup
    case reset
  }
}

/// A group of annotation kinds, such as "Issues" (open, closed).
public struct FilterGroup: Equatable, Sendable, Identifiable {
  public var id: String
  public var title: String
  public var kinds: [AnnotationKind]

  public init(id: String, title: String, kinds: [AnnotationKind]) {
    self.id = id
    self.title = title
    self.kinds = kinds
  }
}

/// One kind of annotation, the unit a filter selects.
public struct AnnotationKind: Equatable, Sendable, Identifiable {
  public var id: String
  public var title: String

  public init(id: String, title: String) {
    self.id = id
    self.title = title
  }
}

/// One annotation on the drawing.
public struct Annotation: Equatable, Sendable, Identifiable {
  public var id: String
  public var title: String
  /// The ``AnnotationKind/id`` of its kind.
  public var kind: String

  public init(id: String, title: String, kind: String) {
    self.id = id
    self.title = title
    self.kind = kind
  }
}

extension AnnotationFilters {
  /// Browser actions enter the store as `.client`, beside the actions only the server sends.
  public static func embed(_ action: ClientAction) -> Action { .client(action) }
}
