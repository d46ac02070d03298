import Foundation
import Statecast
import StatecastClient
import StatecastJSON
import StatecastStorage
import Testing

@testable import StatecastServer

/// The route primitive: a feature's `makeStore` sees the join (viewer, path parameters,
/// params), and the same feature is durable with a view per viewer, on a real server.
@Suite(.timeLimit(.minutes(1))) struct RouteTests {
  let directory = FileManager.default.temporaryDirectory
    .appendingPathComponent("statecast-route-\(UUID().uuidString)")

  @Test func makeStoreSeesTheViewerThePathParametersAndTheParams() async throws {
    let server = serve([.perSession("desk/:room", Desk.self, dependencies: ())])
    let port = try server.start()
    let client = try WebSocketClient()
    let ada = try await StatecastConnection.connect(to: "ws://127.0.0.1:\(port)/ws?user=ada", client: client)
    let desk = try await ada.join("desk/blue", params: ["greeting": "hello"])
    #expect(desk.state?["room"] == "blue")
    #expect(desk.state?["owner"] == "ada")
    #expect(desk.state?["greeting"] == "hello")
    // Params the feature cannot read leave its default; a guest is who it is.
    let guest = try await StatecastConnection.connect(to: "ws://127.0.0.1:\(port)/ws", client: client)
    let other = try await guest.join("desk/red", params: ["greeting": 5])
    #expect(other.state?["room"] == "red")
    #expect(other.state?["greeting"] == "")
    #expect(other.state?["owner"] != "ada")
    await client.shutdown()
    await server.shutdown()
  }

  @Test func aDurableFeatureKeepsItsViewPerViewerAcrossARestart() async throws {
    defer { try? FileManager.default.removeItem(at: directory) }
    let routes: [Route] = [.shared("desk/:room", Desk.self, dependencies: (), durability: .durable)]
    do {
      let server = serve(routes, persistence: .sqlite(try SQLiteStorage(directory: directory)))
      let port = try server.start()
      let client = try WebSocketClient()
      let ada = try await StatecastConnection.connect(
        to: "ws://127.0.0.1:\(port)/ws?user=ada", client: client)
      let bob = try await StatecastConnection.connect(
        to: "ws://127.0.0.1:\(port)/ws?user=bob", client: client)
      let adaDesk = try await ada.join("desk/team", params: ["greeting": "hi"])
      let bobDesk = try await bob.join("desk/team")
      try await ada.send(action: Desk.ClientAction.draft(text: "ada's"), to: "desk/team")
      try await bob.send(action: Desk.ClientAction.draft(text: "bob's"), to: "desk/team")
      try await bob.send(action: Desk.ClientAction.post, to: "desk/team")
      #expect(await waitForState(adaDesk) { $0["posts"] == ["bob's"] }?["myDraft"] == "ada's")
      #expect(bobDesk.state?["myDraft"] == "")
      // The store was made with the first member's join.
      #expect(bobDesk.state?["owner"] == "ada")
      await client.shutdown()
      await server.shutdown()
    }
    let server = serve(routes, persistence: .sqlite(try SQLiteStorage(directory: directory)))
    let port = try server.start()
    let client = try WebSocketClient()
    let bob = try await StatecastConnection.connect(to: "ws://127.0.0.1:\(port)/ws?user=bob", client: client)
    let ada = try await StatecastConnection.connect(to: "ws://127.0.0.1:\(port)/ws?user=ada", client: client)
    // Restored, not made again from the first join after the restart (bob's).
    let bobDesk = try await bob.join("desk/team")
    let adaDesk = try await ada.join("desk/team")
    #expect(bobDesk.state?["owner"] == "ada")
    #expect(bobDesk.state?["greeting"] == "hi")
    #expect(bobDesk.state?["posts"] == ["bob's"])
    #expect(adaDesk.state?["myDraft"] == "ada's")
    #expect(bobDesk.state?["myDraft"] == "")
    await client.shutdown()
    await server.shutdown()
  }

  @Test func revisionsStartAtZeroOnlyForAStoreMadeAfreshOnOneProcess() {
    #expect(RevisionOrigin.of(restored: false, clustered: false) == .fresh)
    #expect(RevisionOrigin.fresh.revision == 0 && RevisionOrigin.fresh.historyStartsKnown)
    let before = Int(Date().timeIntervalSince1970 * 1_000)
    for origin in [
      RevisionOrigin.of(restored: true, clustered: false), .of(restored: false, clustered: true),
    ] {
      #expect(origin.revision >= before)
      #expect(!origin.historyStartsKnown)
    }
  }

  /// A server of `routes` whose authenticator makes `?user=NAME` that viewer.
  private func serve(_ routes: [Route], persistence: Persistence = .inMemory) -> StatecastServer {
    var configuration = ServerConfiguration()
    configuration.port = 0
    configuration.publicDirectory = nil
    configuration.authenticate = { request in
      guard let query = request.path.split(separator: "?").last, query.hasPrefix("user=") else {
        return .guest
      }
      let user = String(query.dropFirst(5))
      return .viewer(Viewer(id: user, name: user))
    }
    return StatecastServer(configuration: configuration, routes: routes, persistence: persistence)
  }
}

/// A durable feature whose store starts from its join (the room's name, who opened it,
/// a greeting from the params), and whose view differs per viewer (their own draft).
enum Desk: DurableFeature {
  struct State: Codable, Sendable {
    var room = ""
    var owner = ""
    var greeting = ""
    var drafts: [String: String] = [:]
    var posts: [String] = []
  }

  enum Action: Sendable { case client(Viewer, ClientAction) }
  enum ClientAction: Codable, Sendable {
    case draft(text: String)
    case post
  }

  struct ViewState: Encodable, Sendable {
    var room: String
    var owner: String
    var greeting: String
    var posts: [String]
    var myDraft: String
  }

  private struct Params: Decodable { var greeting: String? }

  static var initialState: State { State() }
  static var viewDependsOnViewer: Bool { true }

  static func embed(_ action: ClientAction, from viewer: Viewer) -> Action { .client(viewer, action) }

  static func viewState(_ state: State) -> ViewState { viewState(state, for: .anonymous) }
  static func viewState(_ state: State, for viewer: Viewer) -> ViewState {
    ViewState(
      room: state.room, owner: state.owner, greeting: state.greeting, posts: state.posts,
      myDraft: state.drafts[viewer.id] ?? "")
  }

  static func makeStore(
    dependencies: Void, join: Join, state: State, commit: (@Sendable (Commit<State>) async throws -> Void)?
  ) -> Store<State, Action> {
    var state = state
    if state.owner.isEmpty {
      state.room = join.pathParameters["room"] ?? ""
      state.owner = join.viewer.name
      state.greeting = (try? join.params.decode(Params.self))?.greeting ?? ""
    }
    return Store(
      initialState: state,
      reducer: Reducer { state, action in
        switch action {
        case .client(let viewer, .draft(let text)): state.drafts[viewer.id] = text
        case .client(let viewer, .post): state.posts.append(state.drafts.removeValue(forKey: viewer.id) ?? "")
        }
        return .none
      }, commit: commit)
  }
}
