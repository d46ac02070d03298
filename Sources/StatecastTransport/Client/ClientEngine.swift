import Foundation

/// The process's one libwebsockets client context and its service thread, shared by
/// every WebSocket client of the process (`StatecastClient`'s `WebSocketClient`).
///
/// Why one per process: lws 4.1 re-allocates OpenSSL's ex-data indices, process-wide, each
/// time a context initialises TLS, so a context created while another context's TLS
/// handshake is in flight makes that handshake fail. Creating the client context once
/// (and never tearing it down) keeps clients from disturbing each other or a TLS server
/// in the same process; one context serves thousands of connections anyway.
///
/// Threading mirrors the server's: the service thread alone touches connections; any
/// thread queues connects, frames and closes (``ClientCore``) and wakes it with
/// `lws_cancel_service`.
///
///     let engine = try ClientEngine.shared.get()
///     let id = engine.makeID()
///     engine.connect(ConnectRequest(id: id, target: target, ..., events: handler))
///     engine.send(fragments: [Array("hello".utf8)], binary: false, on: id)
package final class ClientEngine: Sendable {
  /// The thread that runs the client context; service-thread-only code checks it in
  /// debug builds.
  package let serviceThread = ServiceThread()
  let core: ClientCore
  /// The state only the service thread touches.
  private let serviceState: ServiceThreadBound<ClientServiceSide>

  /// The shared engine, started on first use; the error if lws could not create it.
  package static let shared: Result<ClientEngine, ClientEngineError> = {
    do { return .success(try ClientEngine()) } catch let error as ClientEngineError {
      return .failure(error)
    } catch {
      return .failure(ClientEngineError(reason: "\(error)"))
    }
  }()

  private init() throws {
    core = ClientCore(serviceThread: serviceThread)
    serviceState = ServiceThreadBound(
      ClientServiceSide(serviceThread: serviceThread), serviceThread: serviceThread)
    LibWebSocketsLog.configure()
    FileDescriptorLimit.raise(toAtLeast: 65_536)
    let context = try ClientContext(connectTimeoutSeconds: 10, callbacks: self)
    core.attach(ContextWaker(context.context))
    service.context = context.context
    let handOver = ServiceThreadBound(context, serviceThread: serviceThread)
    let thread = Thread { [serviceThread] in
      serviceThread.enter(name: "statecastclient")
      let context = handOver.value
      while context.serviceOnce() >= 0 {}
    }
    thread.name = "statecast-lws-client"
    thread.start()
  }

  /// The state only the service thread touches. Service thread.
  var service: ClientServiceSide { serviceState.value }

  /// A fresh connection id (never reused). Any thread.
  package func makeID() -> UInt64 {
    core.makeID()
  }

  /// Queues a connect for the service thread; `false` if the engine cannot take it (its
  /// `events` are then never called). Any thread.
  package func connect(_ request: ConnectRequest) -> Bool {
    core.enqueue(request)
  }

  /// Queues one message, split into `fragments` (one frame each); `false` if the
  /// connection is closed or closing. Any thread.
  package func send(fragments: [[UInt8]], binary: Bool, on id: UInt64) -> Bool {
    core.send(ClientFrame.message(fragments, binary: binary), on: id)
  }

  /// Closes the connection with `code` and `reason` after its queued frames; `false` if
  /// it is already closed or closing. Any thread.
  package func close(_ id: UInt64, code: UInt16, reason: String) -> Bool {
    core.close(id, code: code, reason: reason)
  }
}

/// Why the client engine could not start: libwebsockets' reason.
package struct ClientEngineError: Error, Sendable {
  package var reason: String
}
