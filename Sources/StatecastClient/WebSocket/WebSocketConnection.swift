import Foundation
import StatecastTransport

/// One open WebSocket of a ``WebSocketClient``: send messages, read ``events``, close.
///
/// Sending never blocks: frames are queued and written by the client's service thread in
/// the order they were sent. The raw sends (`send(text:)` with bytes, `send(fragments:)`)
/// put exactly the given bytes on the wire, malformed UTF-8 included, which is what a
/// server's conformance tests need.
///
///     connection.send(text: "hello")
///     var events = connection.events.makeAsyncIterator()
///     let reply = await events.next()        // .text(...)
///     connection.close(code: 1000)
public final class WebSocketConnection: Sendable {
  /// Every message received, then one `.closed` event, after which the sequence ends.
  /// Buffered without limit: read it, or the connection's messages pile up in memory.
  public let events: AsyncStream<WebSocketEvent>

  /// The subprotocol the server chose, or `nil` if it named none.
  public let subprotocol: String?

  let id: UInt64
  let client: WebSocketClient

  init(id: UInt64, client: WebSocketClient, events: AsyncStream<WebSocketEvent>, subprotocol: String?) {
    self.id = id
    self.client = client
    self.events = events
    self.subprotocol = subprotocol
  }

  /// Sends a text message. Returns `false` if the connection is closed or closing.
  @discardableResult
  public func send(text: String) -> Bool {
    send(fragments: [Array(text.utf8)], binary: false)
  }

  /// Sends `bytes` as one text message, as they are: invalid UTF-8 is not checked here.
  @discardableResult
  public func send(text bytes: some Collection<UInt8>) -> Bool {
    send(fragments: [Array(bytes)], binary: false)
  }

  /// Sends one binary message.
  @discardableResult
  public func send(binary bytes: some Collection<UInt8>) -> Bool {
    send(fragments: [Array(bytes)], binary: true)
  }

  /// Sends one message split into frames: the first carries the text or binary opcode,
  /// the others are continuations, the last has FIN set.
  @discardableResult
  public func send(fragments: [[UInt8]], binary: Bool = false) -> Bool {
    client.engine.send(fragments: fragments, binary: binary, on: id)
  }

  /// Closes with `code` and `reason` after the queued messages; ``events`` then ends
  /// with `.closed`. Does nothing if already closing.
  public func close(code: UInt16 = 1000, reason: String = "") {
    _ = client.engine.close(id, code: code, reason: reason)
  }
}
