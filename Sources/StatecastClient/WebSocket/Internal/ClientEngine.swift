import Foundation
import StatecastTransport

/// The process's one libwebsockets client context and its service thread, shared by
/// every ``WebSocketClient``.
///
/// Why one per process: lws 4.1 re-allocates OpenSSL's ex-data indices, process-wide, each
/// time a context initialises TLS, so a context created while another context's TLS
/// handshake is in flight makes that handshake fail. Creating the client context once
/// (and never tearing it down) keeps clients from disturbing each other or a TLS server
/// in the same process; one context serves thousands of connections anyway.
final class ClientEngine: @unchecked Sendable {
  // Sendable: `core` locks itself; `service` is confined to the service thread.

  /// The thread that runs the client context; service-thread-only code checks it in
  /// debug builds.
  package let serviceThread = ServiceThread()
  let core: ClientCore
  let service: ClientServiceSide

  /// The shared engine, started on first use; the error if lws could not create it.
  static let shared: Result<ClientEngine, WebSocketClientError> = {
    do { return .success(try ClientEngine()) } catch let error as WebSocketClientError {
      return .failure(error)
    } catch {
      return .failure(.connectionFailed("\(error)"))
    }
  }()

  private init() throws {
    core = ClientCore(serviceThread: serviceThread)
    service = ClientServiceSide(serviceThread: serviceThread)
    LibWebSocketsLog.configure()
    FileDescriptorLimit.raise(toAtLeast: 65_536)
    let context = try ClientContext(connectTimeoutSeconds: 10, callbacks: self)
    core.attach(context.context)
    service.context = context.context
    let thread = Thread { [serviceThread] in
      serviceThread.enter()
      while context.serviceOnce() >= 0 {}
    }
    thread.name = "statecast-lws-client"
    thread.start()
  }
}
