#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A pthread mutex guarding the transport's state shared between the service thread and
/// the threads that send.
///
/// Why not `Synchronization.Mutex`: ThreadSanitizer reported races inside
/// `Mutex.withLock` on this toolchain that it does not report for a pthread mutex, and
/// the transport's tests run under `--sanitize=thread`.
final class TransportLock: @unchecked Sendable {
  private let mutex: UnsafeMutablePointer<pthread_mutex_t>

  init() {
    mutex = .allocate(capacity: 1)
    mutex.initialize(to: pthread_mutex_t())
    pthread_mutex_init(mutex, nil)
  }

  deinit {
    pthread_mutex_destroy(mutex)
    mutex.deinitialize(count: 1)
    mutex.deallocate()
  }

  /// Runs `body` while holding the mutex. Any thread; not reentrant.
  @inline(__always)
  func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
    pthread_mutex_lock(mutex)
    defer { pthread_mutex_unlock(mutex) }
    return try body()
  }
}
