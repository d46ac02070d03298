#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Raises the process's open-files limit before a libwebsockets context is created.
///
/// Why: lws sizes its table of sockets from the soft `RLIMIT_NOFILE` at context creation
/// and refuses connections beyond it; the usual soft limit (1,024) is far below 10,000
/// connections. The soft limit goes up to the hard limit, and the hard limit too when the
/// process may raise it (root in a container).
package enum FileDescriptorLimit {
  /// Raises the soft limit to at least `target` where allowed, and returns the soft limit
  /// in force afterwards. Any thread; call before creating the context.
  @discardableResult
  package static func raise(toAtLeast target: Int) -> Int {
    var limit = rlimit()
    guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return 1_024 }
    let wanted = rlim_t(max(target, 0))
    if limit.rlim_cur >= wanted { return Int(limit.rlim_cur) }
    if limit.rlim_max < wanted {
      var raised = rlimit(rlim_cur: wanted, rlim_max: wanted)
      if setrlimit(Int32(RLIMIT_NOFILE.rawValue), &raised) == 0 { return Int(wanted) }
    }
    var raised = rlimit(rlim_cur: min(wanted, limit.rlim_max), rlim_max: limit.rlim_max)
    if setrlimit(Int32(RLIMIT_NOFILE.rawValue), &raised) == 0 { return Int(raised.rlim_cur) }
    return Int(limit.rlim_cur)
  }
}
