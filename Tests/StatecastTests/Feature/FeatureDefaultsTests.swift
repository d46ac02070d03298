import Statecast
import Testing

/// What a feature may leave out: one of the two `embed`s, `Dependencies` when it needs
/// nothing, and a durable feature's plain `makeStore`.
@Suite struct FeatureDefaultsTests {
  struct Count: Equatable, Codable, Sendable { var value = 0 }
  enum Click: Equatable, Decodable, Sendable { case plus }

  /// Records authors: writes only `embed(_:from:)`, and no `Dependencies`.
  enum Authored: DurableFeature {
    typealias State = Count
    typealias ClientAction = Click
    typealias ViewState = Count
    enum Action: Equatable, Sendable { case client(Viewer, Click) }

    static var initialState: Count { Count(value: 7) }
    static func embed(_ action: Click, from viewer: Viewer) -> Action { .client(viewer, action) }
    static func viewState(_ state: Count) -> Count { state }
    static func makeStore(
      dependencies: Void, join: Join, state: Count, commit: (@Sendable (Commit<Count>) async throws -> Void)?
    ) -> Store<Count, Action> {
      Store(
        initialState: state,
        reducer: Reducer { state, _ in
          state.value += 1
          return .none
        }, commit: commit)
    }
  }

  /// Does not: writes only `embed(_:)`.
  enum Plain: Feature {
    typealias State = Count
    typealias ClientAction = Click
    typealias ViewState = Count
    enum Action: Equatable, Sendable { case client(Click) }

    static func embed(_ action: Click) -> Action { .client(action) }
    static func viewState(_ state: Count) -> Count { state }
    static func makeStore(dependencies: Void, join: Join) -> Store<Count, Action> {
      Store(initialState: Count(), reducer: Reducer { _, _ in .none })
    }
  }

  @Test func eitherEmbedGivesTheOther() {
    let ada = Viewer(id: "ada", name: "Ada")
    #expect(Authored.embed(.plus) == .client(.anonymous, .plus))
    #expect(Authored.embed(.plus, from: ada) == .client(ada, .plus))
    #expect(Plain.embed(.plus, from: ada) == .client(.plus))
  }

  @Test func dependenciesDefaultToVoid() {
    #expect(Authored.Dependencies.self == Void.self)
    #expect(Plain.Dependencies.self == Void.self)
  }

  @Test func aDurableFeaturesPlainStoreStartsFromItsInitialStateWithoutCommits() async throws {
    let store = try await Authored.makeStore(dependencies: (), join: Join())
    #expect(await store.state == Count(value: 7))
    await store.send(.client(.anonymous, .plus)).finish()
    #expect(await store.state == Count(value: 8))
  }
}
