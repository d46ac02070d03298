internal import CLibWebSockets

/// Wakes the service thread of one libwebsockets context from any thread, through
/// `lws_cancel_service`, the one lws call that is safe off the service thread: the
/// thread then runs `LWS_CALLBACK_EVENT_WAIT_CANCELLED`, where it picks up queued work.
///
/// Why a type: the queues that senders lock need the context's pointer to wake the loop,
/// and a raw pointer is not `Sendable`. The pointer is only ever passed to
/// `lws_cancel_service`; its owner stops every waker (``ConnectionTable/detach()``)
/// before it destroys the context.
package struct ContextWaker {
  private let context: OpaquePointer

  package init(_ context: OpaquePointer) {
    self.context = context
  }

  /// Wakes the context's service thread. Any thread.
  package func wake() {
    lws_cancel_service(context)
  }
}

// Sendable: the pointer is only handed to `lws_cancel_service`, which lws documents as
// callable from any thread while the context exists.
extension ContextWaker: @unchecked Sendable {}
