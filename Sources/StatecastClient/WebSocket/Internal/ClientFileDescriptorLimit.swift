#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Raises the open-files limit before the client context sizes its socket table from it
/// (the usual soft limit of 1,024 would cap a load test at about a thousand sockets).
enum ClientFileDescriptorLimit {
  static func raise(toAtLeast target: Int) {
    var limit = rlimit()
    guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return }
    let wanted = rlim_t(max(target, 0))
    guard limit.rlim_cur < wanted else { return }
    if limit.rlim_max < wanted {
      var raised = rlimit(rlim_cur: wanted, rlim_max: wanted)
      if setrlimit(Int32(RLIMIT_NOFILE.rawValue), &raised) == 0 { return }
    }
    var raised = rlimit(rlim_cur: min(wanted, limit.rlim_max), rlim_max: limit.rlim_max)
    _ = setrlimit(Int32(RLIMIT_NOFILE.rawValue), &raised)
  }
}
