internal import CLibWebSockets

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Sets libwebsockets' process-wide log level once, before the first context.
///
/// Why: lws prints notices (its version, every listen, every refused upgrade) to stderr
/// by default. Only errors are kept; `STATECAST_LWS_LOG` (an lws `LLL_*` bit mask, e.g.
/// `15` for errors, warnings, notices and info) turns more on for debugging.
package enum LibWebSocketsLog {
  private static let configured: Void = {
    var level = Int32(LLL_ERR)
    if let text = getenv("STATECAST_LWS_LOG"), let value = Int32(String(cString: text)) {
      level = value
    }
    lws_set_log_level(level, nil)
  }()

  /// Applies the level the first time it is called. Any thread.
  package static func configure() {
    _ = configured
  }
}
