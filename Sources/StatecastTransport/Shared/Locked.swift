package import Foundation

/// A value that several threads read and write, guarded by a lock.
///
/// The transport, the client and the server share state between the libwebsockets service
/// thread, Swift concurrency's executors and `deinit`s. A type that keeps such state in a
/// `Locked` is `Sendable` as the compiler checks it, so the one hand-made promise of
/// thread safety is made here, once, instead of in every type that holds a lock.
///
/// `NSLock` rather than `Synchronization.Mutex`: ThreadSanitizer on this toolchain reports
/// `Mutex.withLock` as a data race, which would hide real ones in the sanitizer run.
///
///     let counts = Locked([String: Int]())
///     counts.withLock { $0["joins", default: 0] += 1 }
///
/// `withLock` is inlinable so that callers in other targets get it specialized for their
/// value, as a class with its own lock would be.
package final class Locked<Value> {
  @usableFromInline let lock = NSLock()
  @usableFromInline var value: Value

  @inlinable package init(_ value: Value) {
    self.value = value
  }

  /// Runs `body` with the value, holding the lock; `body` must not call back into this box.
  @inlinable
  package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
    lock.lock()
    defer { lock.unlock() }
    return try body(&value)
  }
}

// Sendable: `value` is read and written only inside `lock`.
extension Locked: @unchecked Sendable where Value: Sendable {}
