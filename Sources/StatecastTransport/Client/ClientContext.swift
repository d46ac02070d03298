internal import CLibWebSockets

/// Owns the client's libwebsockets context (no listening port) and the C memory its
/// protocols array points into.
///
/// Created once per process by ``ClientEngine`` and run by its service thread for the
/// rest of the process's life (handed to it in a ``ServiceThreadBound``).
final class ClientContext {

  /// The name of the client's only protocol (a local handler name; the subprotocols a
  /// connection offers are given per connection).
  static let protocolName = "statecast-client"

  let context: OpaquePointer
  private let allocations = CAllocations()
  /// What the context's user pointer points at; lives as long as the context.
  private let callbackTarget: CallbackTarget

  /// Creates the context. Creating thread, before the service thread starts.
  ///
  /// - Parameters:
  ///   - connectTimeoutSeconds: how long a connect and its upgrade may take.
  ///   - callbacks: receives every callback (the engine, which lives for the process).
  init(connectTimeoutSeconds: Int, callbacks: any LibWebSocketsCallbacks) throws {
    callbackTarget = CallbackTarget(callbacks)
    let protocols = allocations.zeroed(lws_protocols.self, count: 2)
    protocols[0].name = allocations.string(Self.protocolName)
    protocols[0].callback = statecastProtocolCallback

    var info = lws_context_creation_info()
    info.port = -1  // CONTEXT_PORT_NO_LISTEN: a client context
    info.protocols = UnsafePointer(protocols)
    info.options = statecast_option_ssl_global_init | statecast_option_raw_origin
    info.user = callbackTarget.opaque
    info.connect_timeout_secs = UInt32(max(connectTimeoutSeconds, 1))
    info.timeout_secs = UInt32(max(connectTimeoutSeconds, 1))
    guard let context = lws_create_context(&info) else {
      throw ClientEngineError(reason: "cannot create a libwebsockets client context")
    }
    self.context = context
  }

  /// One event-loop iteration. Service thread.
  func serviceOnce() -> Int32 {
    lws_service(context, 0)
  }

  deinit {
    lws_context_destroy(context)
  }
}
