/// A value that only one libwebsockets service thread touches, checked on every access
/// in debug builds.
///
/// Why: the transport and the client engine keep each connection's `wsi`, the message it
/// is receiving and similar state without a lock, because lws calls back on its service
/// thread only. Such state is still handed once from the thread that creates it to the
/// service thread, so its owner must be `Sendable`. This box makes that one promise, in
/// one place, and backs it with ``ServiceThread/check(_:file:line:)`` on each access,
/// the way SwiftNIO's `NIOLoopBoundBox` ties a value to its event loop. Until the loop
/// starts, the creating thread may set the value up.
///
///     let sockets = ServiceThreadBound([ConnectionID: OpaquePointer](), serviceThread: thread)
///     sockets.value[id] = wsi   // service thread only
package final class ServiceThreadBound<Value> {
  private let serviceThread: ServiceThread
  private var stored: Value

  package init(_ value: Value, serviceThread: ServiceThread) {
    self.stored = value
    self.serviceThread = serviceThread
  }

  /// The value. Service thread (or the creating thread, before the loop starts).
  package var value: Value {
    get {
      serviceThread.check()
      return stored
    }
    _modify {
      serviceThread.check()
      yield &stored
    }
  }
}

// Sendable: `stored` is read and written on the service thread only, which `value`
// checks in debug builds; the box itself only crosses threads to reach it.
extension ServiceThreadBound: @unchecked Sendable {}
