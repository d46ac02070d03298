import Foundation
import Statecast
import StatecastTesting
import Testing

@testable import StatecastExamples

@Suite("AnnotationFilters")
struct AnnotationFiltersTests {
  typealias Feature = AnnotationFilters
  let drawing = Feature.Dependencies(
    groups: [
      FilterGroup(
        id: "issues", title: "Issues",
        kinds: [AnnotationKind(id: "open", title: "Open"), AnnotationKind(id: "closed", title: "Closed")]),
      FilterGroup(id: "media", title: "Media", kinds: [AnnotationKind(id: "photo", title: "Photos")]),
    ],
    annotations: [
      Annotation(id: "a", title: "Crack", kind: "open"),
      Annotation(id: "b", title: "Leak", kind: "closed"),
      Annotation(id: "c", title: "Lobby", kind: "photo"),
      Annotation(id: "d", title: "Beam", kind: "open"),
    ]
  )

  func makeStore() -> TestStore<Feature.State, Feature.Action> {
    TestStore(
      initialState: Feature.State(groups: drawing.groups, annotations: drawing.annotations),
      reducer: Feature.reducer
    )
  }

  @Test func togglingKindsFiltersTheAnnotations() async {
    let store = makeStore()
    #expect(!store.state.isFiltering)
    #expect(store.state.visibleAnnotations.map(\.id) == ["a", "b", "c", "d"])

    await store.send(.client(.enterGroup(id: "issues"))) { $0.openGroupID = "issues" }
    await store.send(.client(.toggle(kind: "open"))) { $0.selectedKinds = ["open"] }
    #expect(store.state.isFiltering)
    #expect(store.state.visibleAnnotations.map(\.id) == ["a", "d"])

    await store.send(.client(.leaveGroup)) { $0.openGroupID = nil }
    await store.send(.client(.enterGroup(id: "media"))) { $0.openGroupID = "media" }
    await store.send(.client(.toggle(kind: "photo"))) { $0.selectedKinds = ["open", "photo"] }
    #expect(store.state.visibleAnnotations.map(\.id) == ["a", "c", "d"])

    await store.send(.client(.toggle(kind: "open"))) { $0.selectedKinds = ["photo"] }
    #expect(store.state.visibleAnnotations.map(\.id) == ["c"])
    await store.send(.client(.toggle(kind: "photo"))) { $0.selectedKinds = [] }
    #expect(!store.state.isFiltering)
    await store.finish()
  }

  @Test func resetClearsEveryFilterButKeepsTheOpenGroup() async {
    let store = makeStore()
    await store.send(.client(.enterGroup(id: "issues"))) { $0.openGroupID = "issues" }
    await store.send(.client(.toggle(kind: "open"))) { $0.selectedKinds = ["open"] }
    await store.send(.client(.toggle(kind: "closed"))) { $0.selectedKinds = ["open", "closed"] }
    await store.send(.client(.reset)) { $0.selectedKinds = [] }
    #expect(!store.state.isFiltering)
    await store.send(.client(.reset))
    await store.finish()
  }

  @Test func unknownKindsAndGroupsAreIgnored() async {
    let store = makeStore()
    await store.send(.client(.toggle(kind: "cloud")))
    await store.send(.client(.enterGroup(id: "markups")))
    await store.send(.client(.leaveGroup))
    await store.finish()
  }

  @Test func viewState() throws {
    var state = Feature.State(groups: drawing.groups, annotations: drawing.annotations)
    var view = Feature.viewState(state)
    #expect(!view.isFiltering && view.openGroup == nil)
    #expect(view.visibleCount == 4 && view.totalCount == 4 && view.summary == "Showing all 4 annotations")
    #expect(view.groups.map(\.selectedCount) == [0, 0] && view.groups.map(\.filterCount) == [2, 1])

    state.selectedKinds = ["closed"]
    state.openGroupID = "issues"
    view = Feature.viewState(state)
    #expect(view.isFiltering && view.summary == "Showing 1 of 4 annotations")
    #expect(
      view.visibleAnnotations == [
        Feature.AnnotationRow(id: "b", title: "Leak", kind: "closed", kindTitle: "Closed")
      ])
    #expect(view.groups.map(\.selectedCount) == [1, 0])
    #expect(
      view.openGroup?.filters == [
        Feature.FilterRow(id: "open", title: "Open", isSelected: false, count: 2),
        Feature.FilterRow(id: "closed", title: "Closed", isSelected: true, count: 1),
      ])

    let json = try JSONSerialization.jsonObject(with: JSONEncoder().encode(view)) as? [String: Any]
    #expect(json?["isFiltering"] as? Bool == true)
    #expect((json?["openGroup"] as? [String: Any])?["id"] as? String == "issues")
  }

  @Test func theSampleDrawingIsConsistent() {
    let live = Feature.Dependencies.live()
    let state = Feature.State(groups: live.groups, annotations: live.annotations)
    #expect(live.annotations.allSatisfy { state.isKnownKind($0.kind) })
    let kindIDs = live.groups.flatMap(\.kinds).map(\.id)
    #expect(Set(kindIDs).count == kindIDs.count)
    #expect(Set(live.annotations.map(\.id)).count == live.annotations.count)
  }

  @Test func clientActionsDecodeFromTheWireForm() throws {
    for (json, action) in [
      (#"{"toggle":{"kind":"photo"}}"#, Feature.ClientAction.toggle(kind: "photo")),
      (#"{"enterGroup":{"id":"issues"}}"#, .enterGroup(id: "issues")),
      (#"{"leaveGroup":{}}"#, .leaveGroup), (#"{"reset":{}}"#, .reset),
    ] {
      #expect(try JSONDecoder().decode(Feature.ClientAction.self, from: Data(json.utf8)) == action)
    }
  }

  @Test func theLiveStoreStartsOnTheSampleDrawing() async {
    let store = Feature.makeStore(dependencies: .live(), join: Join())
    await store.send(.client(.toggle(kind: "photo")))
    let state = await store.state
    #expect(state.groups == Feature.Dependencies.live().groups)
    #expect(state.visibleAnnotations.map(\.id) == ["a7", "a8"])
    await store.close()
  }
}
