@testable import StatecastTransport

/// A ``TransportHandler`` that records every call as an event a test can await, and
/// optionally behaves like the protocol layer: echo each message back, answer a too-large
/// message with an error frame and a 1009 close.
final class RecordingHandler: TransportHandler, @unchecked Sendable {
  // Sendable: `transport` is set once before the transport starts; the rest is immutable.

  enum Event: Equatable, Sendable {
    case opened(ConnectionID)
    /// Before `.opened`, when the upgrade check accepted the upgrade with a `String`.
    case identified(ConnectionID, String)
    case received(ConnectionID, [UInt8])
    case tooLarge(ConnectionID)
    case drained(ConnectionID)
    case closed(ConnectionID)
  }

  let events: AsyncStream<Event>
  private let continuation: AsyncStream<Event>.Continuation
  private let echoes: Bool
  weak var transport: WebSocketTransport?

  /// The frame sent before closing a too-large message's connection with 1009.
  static let tooLargeReply = #"{"op":"reply","ref":null,"status":"error","error":{"code":"too_large"}}"#

  init(echoes: Bool = false) {
    self.echoes = echoes
    (events, continuation) = AsyncStream.makeStream(of: Event.self)
  }

  func transportOpened(_ id: ConnectionID) { continuation.yield(.opened(id)) }

  func transportOpened(_ id: ConnectionID, identity: (any Sendable)?) {
    if let name = identity as? String { continuation.yield(.identified(id, name)) }
    continuation.yield(.opened(id))
  }

  func transportReceived(_ id: ConnectionID, message: [UInt8]) {
    continuation.yield(.received(id, message))
    if echoes { transport?.send(OutboundFrame(text: message), to: id) }
  }

  func transportRejectedTooLarge(_ id: ConnectionID) {
    continuation.yield(.tooLarge(id))
    transport?.send(OutboundFrame(text: Self.tooLargeReply), to: id)
    transport?.close(id, code: 1009, reason: "message too big")
  }

  func transportDrained(_ id: ConnectionID) { continuation.yield(.drained(id)) }

  func transportClosed(_ id: ConnectionID) { continuation.yield(.closed(id)) }
}
