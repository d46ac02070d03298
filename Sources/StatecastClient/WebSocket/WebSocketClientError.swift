/// Why a WebSocket connection could not be opened or used.
public enum WebSocketClientError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The URL is not `ws://` or `wss://` with a host.
  case invalidURL(String)
  /// The connection or its upgrade failed; the text is libwebsockets' reason (for a
  /// refused upgrade it names the HTTP status, e.g. "HS: ws upgrade response not 101").
  case connectionFailed(String)
  /// The client was shut down.
  case clientStopped

  public var description: String {
    switch self {
    case .invalidURL(let url): "not a ws:// or wss:// URL: \(url)"
    case .connectionFailed(let reason): "WebSocket connection failed: \(reason)"
    case .clientStopped: "the WebSocket client was shut down"
    }
  }
}
