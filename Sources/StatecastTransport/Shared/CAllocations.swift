#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// C memory that must live as long as a libwebsockets context: strings, mounts, the MIME
/// list, the protocols array, the idle policy.
///
/// Why: the vhost keeps raw pointers to mounts, MIME types, the interface name and their
/// strings instead of copying them, so `withCString` temporaries would dangle. Everything
/// allocated here is freed together in `deinit`, after `lws_context_destroy`.
package final class CAllocations {
  package init() {}

  private var blocks: [UnsafeMutableRawPointer] = []

  /// A NUL-terminated copy of `string`.
  package func string(_ string: String) -> UnsafePointer<CChar> {
    let copy = strdup(string)!
    blocks.append(UnsafeMutableRawPointer(copy))
    return UnsafePointer(copy)
  }

  /// A zero-filled array of `count` values of `T`, for C structs that must start zeroed.
  package func zeroed<T>(_ type: T.Type, count: Int = 1) -> UnsafeMutablePointer<T> {
    let raw = calloc(max(count, 1), MemoryLayout<T>.stride)!
    blocks.append(raw)
    return raw.bindMemory(to: T.self, capacity: max(count, 1))
  }

  deinit {
    for block in blocks { free(block) }
  }
}
