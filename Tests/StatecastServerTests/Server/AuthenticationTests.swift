import Foundation
import Statecast
import StatecastClient
import StatecastJSON
import Testing

@testable import StatecastServer

/// The server's authenticator: refused upgrades never open a socket, and the viewer it
/// names is the one routes see.
@Suite(.timeLimit(.minutes(1)))
struct AuthenticationTests {
  @Test func theAuthenticatorsViewerReachesTheJoinRequest() async throws {
    let seen = Seen()
    let server = StatecastServer(
      configuration: {
        var configuration = ServerConfiguration()
        configuration.port = 0
        configuration.publicDirectory = nil
        configuration.authenticate = { request in
          guard let query = request.path.split(separator: "?").last, query.hasPrefix("user=") else {
            return .guest
          }
          let user = String(query.dropFirst(5))
          if user == "mallory" { return .refused(status: 403, reason: "banned") }
          return .viewer(Viewer(id: "user-\(user)", name: user))
        }
        return configuration
      }(),
      routes: [
        .perSession(
          "private", Ticker.self, dependencies: Probe(),
          access: Access(canJoin: { request in
            seen.record(request.viewer)
            return request.viewer.name == "ada" && request.viewer.isAuthenticated
          }))
      ])
    let port = try server.start()
    let client = try WebSocketClient()
    let ada = try await StatecastConnection.connect(to: "ws://127.0.0.1:\(port)/ws?user=ada", client: client)
    _ = try await ada.join("private")
    let guest = try await StatecastConnection.connect(to: "ws://127.0.0.1:\(port)/ws", client: client)
    await #expect(throws: StatecastError.self) { _ = try await guest.join("private") }
    await #expect(throws: WebSocketClientError.self) {
      _ = try await StatecastConnection.connect(to: "ws://127.0.0.1:\(port)/ws?user=mallory", client: client)
    }
    await client.shutdown()
    await server.shutdown()
    let viewers = seen.viewers
    #expect(viewers.first == Viewer(id: "user-ada", name: "ada", isAuthenticated: true))
    #expect(viewers.count == 2 && viewers[1].isAuthenticated == false)
  }
}

final class Seen: @unchecked Sendable {
  private let lock = NSLock()
  private var recorded: [Viewer] = []
  func record(_ viewer: Viewer) { lock.withLock { recorded.append(viewer) } }
  var viewers: [Viewer] { lock.withLock { recorded } }
}
