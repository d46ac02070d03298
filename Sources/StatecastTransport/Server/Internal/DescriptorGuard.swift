#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Closes newly accepted sockets once the process is close to its open-files limit.
///
/// Why: when `accept` fails with `EMFILE`, libwebsockets logs and returns, the pending
/// connection stays in the listen queue, and the listening socket stays readable, so the
/// service thread spins at full speed. Refusing at a margin below the limit keeps
/// `accept` succeeding (the connection is accepted and closed at once, which empties
/// the queue), leaves descriptors for files being served and for the rest of the
/// process, and recovers by itself as connections close. Descriptors are allocated
/// lowest-first, so the accepted socket's number says how full the table is.
struct DescriptorGuard {
  /// Descriptors kept free for files, logs and the application.
  static let reserve: Int32 = 64

  /// The highest descriptor number accepted sockets may have (exclusive).
  let ceiling: Int32
  /// Sockets closed at accept so far.
  private(set) var refused = 0
  private var warned = false

  /// A guard for a process whose soft open-files limit is `limit`.
  init(limit: Int) {
    ceiling = Int32(clamping: max(limit - Int(Self.reserve), 16))
  }

  /// Whether the socket `descriptor` just accepted may be served. The first refusal is
  /// logged once, and again only after the process has fallen well below the limit, to stderr. Service thread.
  mutating func admits(_ descriptor: Int32) -> Bool {
    if descriptor < ceiling {
      // Warn again only after falling well below the limit, not at every oscillation.
      if descriptor < ceiling - Self.reserve { warned = false }
      return true
    }
    refused += 1
    if !warned {
      warned = true
      let line =
        "statecast: near the open-files limit (\(ceiling + Self.reserve)): closing new connections until some close\n"
      _ = line.withCString { write(STDERR_FILENO, $0, strlen($0)) }
    }
    return false
  }
}
