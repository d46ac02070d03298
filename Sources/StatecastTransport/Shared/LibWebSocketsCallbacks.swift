package import CLibWebSockets

/// What receives every callback of one libwebsockets context: the server transport or
/// the client engine.
///
/// Why a protocol behind one C function: lws needs a plain C function pointer (a global
/// `func` without captures) in its protocols array, and finds the Swift side again only
/// through the context's user pointer. One trampoline, ``statecastProtocolCallback``,
/// serves every context; the context's owner keeps a ``CallbackTarget`` alive for as long
/// as the context exists and passes ``CallbackTarget/opaque`` as the context's `user`.
package protocol LibWebSocketsCallbacks: AnyObject {
  /// The thread that runs the context; every callback is checked to arrive on it (debug
  /// builds).
  var serviceThread: ServiceThread { get }
  /// Handles one callback; the return value is lws' (non-zero closes the connection in
  /// most reasons). Service thread.
  func handle(_ event: LibWebSocketsEvent) -> Int32
}

/// One libwebsockets callback's arguments.
package struct LibWebSocketsEvent {
  /// The connection (or lws' internal pipe connection, for `EVENT_WAIT_CANCELLED`).
  package var wsi: OpaquePointer
  package var reason: lws_callback_reasons
  /// The per-session memory lws allocated for the connection, if any.
  package var user: UnsafeMutableRawPointer?
  /// The reason's data: received bytes, a C string (a path, an upgrade name), or nil.
  package var input: UnsafeMutableRawPointer?
  package var length: Int

  /// `input` as received bytes (empty when there are none).
  package var bytes: UnsafeRawBufferPointer {
    UnsafeRawBufferPointer(start: input, count: input == nil ? 0 : length)
  }

  /// `input` as a NUL-terminated string, or `nil`.
  package var string: String? {
    input.map { String(cString: $0.assumingMemoryBound(to: CChar.self)) }
  }
}

/// The object a context's user pointer points at: the receiver of its callbacks.
///
/// Unretained both ways (the pointer does not retain the target, the target does not
/// retain the receiver): the receiver owns the context, which owns the target, and the
/// context is destroyed before the receiver goes away.
package final class CallbackTarget {
  package unowned(unsafe) let receiver: any LibWebSocketsCallbacks

  package init(_ receiver: any LibWebSocketsCallbacks) {
    self.receiver = receiver
  }

  /// The value for `lws_context_creation_info.user`.
  package var opaque: UnsafeMutableRawPointer {
    Unmanaged.passUnretained(self).toOpaque()
  }
}

/// The protocol callback of every Statecast libwebsockets context. Service thread.
package func statecastProtocolCallback(
  _ wsi: OpaquePointer?, _ reason: lws_callback_reasons, _ user: UnsafeMutableRawPointer?,
  _ input: UnsafeMutableRawPointer?, _ length: Int
) -> Int32 {
  guard let wsi, let contextUser = lws_context_user(lws_get_context(wsi)) else { return 0 }
  let receiver = Unmanaged<CallbackTarget>.fromOpaque(contextUser).takeUnretainedValue().receiver
  receiver.serviceThread.check()
  return receiver.handle(
    LibWebSocketsEvent(wsi: wsi, reason: reason, user: user, input: input, length: length))
}
