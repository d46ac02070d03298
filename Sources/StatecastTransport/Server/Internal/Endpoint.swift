/// The WebSocket endpoints one transport serves, decided from the upgrade's path.
enum Endpoint: UInt32, Sendable {
  /// `/ws`: the Statecast protocol, delivered to the ``TransportHandler``.
  case statecast = 1
  /// `/echo` (when enabled): answered by the transport itself.
  case echo = 2

  /// The WebSocket subprotocol of the Statecast wire protocol.
  static let subprotocol = "statecast.v1"

  /// The endpoint for an upgrade's path, or `nil` if nothing is served there.
  init?(path: String, echoEnabled: Bool) {
    switch path {
    case "/ws": self = .statecast
    case "/echo" where echoEnabled: self = .echo
    default: return nil
    }
  }
}
