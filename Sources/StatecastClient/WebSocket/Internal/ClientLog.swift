internal import CLibWebSockets

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Sets libwebsockets' process-wide log level once (errors only; `STATECAST_LWS_LOG`,
/// an lws `LLL_*` bit mask, turns more on), so that a client does not print lws'
/// notices to stderr.
enum ClientLog {
  private static let configured: Void = {
    var level = Int32(LLL_ERR)
    if let text = getenv("STATECAST_LWS_LOG"), let value = Int32(String(cString: text)) { level = value }
    lws_set_log_level(level, nil)
  }()

  static func configure() {
    _ = configured
  }
}
