import Foundation
import Statecast
import StatecastClient
import StatecastJSON
import StatecastStorage

@testable import StatecastServer

/// A real StatecastServer on a free loopback port with the test routes:
/// - `ticker`: a store per session (``Ticker``), its effects recorded by `probe`;
/// - `room/:id`: one shared ``Ticker`` store per room;
/// - `notes/:id`: one shared ``Notes`` store per room, its view per viewer;
/// - `guarded/:owner`: joinable only by params `{"user": owner}`, and `add` refused above 10;
/// - `failing/:how`: a factory that refuses (`refused`) or fails with an internal error.
struct ServerFixture {
  let server: StatecastServer
  let probe: Probe
  let port: Int
  let client: WebSocketClient

  var url: String { "ws://127.0.0.1:\(port)/ws" }

  static func start(
    cluster: (any ClusterBackplane)? = nil, configure: (inout ServerConfiguration) -> Void = { _ in }
  ) throws -> ServerFixture {
    let probe = Probe()
    var configuration = ServerConfiguration()
    configuration.port = 0
    configuration.publicDirectory = nil
    configure(&configuration)
    let server = StatecastServer(
      configuration: configuration,
      routes: [
        .perSession("ticker", Ticker.self, dependencies: probe),
        .shared("room/:id", Ticker.self, dependencies: probe),
        .shared("notes/:id", Notes.self, dependencies: ()),
        .shared("banner/:id", Banner.self, dependencies: ()),
        .perSession(
          "guarded/:owner", Ticker.self, dependencies: probe,
          access: Access(
            canJoin: { request in request.params["user"]?.stringValue == request.pathParameters["owner"] },
            canSend: { _, action in
              if case .add(let amount) = action { return amount <= 10 }
              return true
            })),
        .perSession("failing/:how", Unopenable.self, dependencies: ()),
      ],
      persistence: Persistence(storage: nil, backplane: cluster)
    )
    let port = try server.start()
    return ServerFixture(server: server, probe: probe, port: port, client: try WebSocketClient())
  }

  func connect() async throws -> StatecastConnection {
    try await StatecastConnection.connect(to: url, client: client)
  }

  func stop() async {
    await client.shutdown()
    await server.shutdown()
  }
}

/// Waits until `subscription`'s state satisfies `condition`, following its states.
func waitForState(
  _ subscription: TopicSubscription, _ condition: (JSON) -> Bool
) async -> JSON? {
  if let state = subscription.state, condition(state) { return state }
  for await state in subscription.states where condition(state) {
    return state
  }
  return nil
}

/// A feature whose stores cannot be made: a join of `failing/refused` is refused with a
/// reason, any other fails with an internal error.
enum Unopenable: Feature {
  typealias State = Ticker.State
  typealias Action = Ticker.Action
  typealias ClientAction = Ticker.ClientAction

  static func embed(_ action: ClientAction) -> Action { .client(action) }
  static func viewState(_ state: State) -> Ticker.ViewState { Ticker.viewState(state) }
  static func makeStore(dependencies: Void, join: Join) throws -> Store<State, Action> {
    if join.pathParameters["how"] == "refused" { throw JoinRefused("no entry today") }
    throw FactoryFailure()
  }
}

/// An internal error whose text must not reach a browser.
struct FactoryFailure: Error, CustomStringConvertible {
  var description: String { "secret database password in the error text" }
}
