/// Why ``WebSocketTransport/start()`` could not start serving.
public enum TransportError: Error, Sendable, Equatable, CustomStringConvertible {
  /// A configuration value is out of range; the message says which and why.
  case invalidConfiguration(String)
  /// libwebsockets could not create the context: the port is taken, the address is not
  /// local, or the TLS certificate or key cannot be read.
  case cannotListen(host: String, port: Int)
  /// `start()` was called on a transport that is already running or was shut down.
  case alreadyStarted

  public var description: String {
    switch self {
    case .invalidConfiguration(let message): "invalid transport configuration: \(message)"
    case .cannotListen(let host, let port):
      "cannot listen on \(host):\(port) (address in use, not local, or unreadable TLS files)"
    case .alreadyStarted: "the transport was already started"
    }
  }
}
