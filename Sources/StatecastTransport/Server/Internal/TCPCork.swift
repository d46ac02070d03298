#if canImport(Glibc)
  import Glibc
#endif

/// Holds a socket's partial segments back while several frames are written in one go
/// (Linux's `TCP_CORK`), and sends them together when released.
///
/// Why: an action's patch and its reply are queued together and written back to back;
/// with `TCP_NODELAY` each `send()` leaves as a segment of its own, and the peer is woken
/// for the first and again for the second. Corked, both leave in one segment and the
/// peer reads them in one wake-up.
enum TCPCork {
  /// Corks `descriptor`; returns it, or `nil` when it cannot be corked.
  static func hold(_ descriptor: Int32) -> Int32? {
    guard descriptor >= 0 else { return nil }
    var on: Int32 = 1
    let result = setsockopt(
      descriptor, Int32(IPPROTO_TCP), TCP_CORK, &on, socklen_t(MemoryLayout<Int32>.size))
    return result == 0 ? descriptor : nil
  }

  /// Uncorks `descriptor`: what it held leaves now.
  static func release(_ descriptor: Int32) {
    var off: Int32 = 0
    _ = setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_CORK, &off, socklen_t(MemoryLayout<Int32>.size))
  }
}
