internal import CLibWebSockets

/// A WebSocket connection's life on the service thread: its id when established, its
/// messages reassembled and handed over, its slot freed when closed. Service thread.
extension WebSocketTransport {
  /// Gives a new WebSocket connection its id and tells the handler (`/ws` only).
  /// Service thread; takes the table's lock to allocate the slot.
  func established(_ wsi: OpaquePointer, session: UnsafeMutableRawPointer?) -> Int32 {
    guard let session = session?.assumingMemoryBound(to: statecast_session.self) else { return -1 }
    let id = table.open()
    session.pointee.connection = id.rawValue
    service.register(id, wsi: wsi)
    service.opened(id, from: peerAddress(wsi))
    var identity: (any Sendable)?
    if let pending = service.pendingIdentity, pending.wsi == wsi { identity = pending.identity }
    service.pendingIdentity = nil
    if session.pointee.endpoint == Endpoint.statecast.rawValue {
      service.handler?.transportOpened(id, identity: identity, address: peerAddress(wsi))
    }
    return 0
  }

  /// Frees a closed connection's slot (later sends answer `.closed`) and tells the
  /// handler (`/ws` only). Service thread; takes the table's lock to free the slot.
  func closed(session: UnsafeMutableRawPointer?) {
    guard let session = session?.assumingMemoryBound(to: statecast_session.self),
      session.pointee.connection != 0
    else { return }
    let id = ConnectionID(rawValue: session.pointee.connection)
    session.pointee.connection = 0
    table.release(id)
    service.unregister(id)
    if session.pointee.endpoint == Endpoint.statecast.rawValue {
      service.handler?.transportClosed(id)
    }
  }

  /// Reassembles fragments into whole messages and enforces the inbound rules: binary →
  /// the handler (1003 unless it takes it, or when over the size limit), too large → handler (or 1009 on `/echo`); the rest of a refused message, and
  /// anything after the server's close frame, is read and discarded. lws itself has
  /// already closed with 1007 on invalid UTF-8. Service thread.
  func received(
    _ wsi: OpaquePointer, session: UnsafeMutableRawPointer?, _ input: UnsafeMutableRawPointer?, _ length: Int
  ) -> Int32 {
    guard let session = session?.assumingMemoryBound(to: statecast_session.self),
      session.pointee.connection != 0
    else { return -1 }
    let id = ConnectionID(rawValue: session.pointee.connection)
    service.heard(id)
    let slot = Int(id.slot)
    let isEcho = session.pointee.endpoint == Endpoint.echo.rawValue
    if session.pointee.closing != 0 || service.inbound[slot].rejected { return 0 }

    let isBinary = lws_frame_is_binary(wsi) != 0
    let limit = isEcho ? configuration.echoMaxMessageSize : configuration.maxMessageSize
    if service.inbound[slot].bytes.count + length > limit {
      service.inbound[slot] = InboundMessage(rejected: true)
      if isBinary && !isEcho {
        // No chunk of an upload is that large: a binary message, refused as before.
        table.requestClose(id, code: 1003, reason: "binary messages are not accepted")
        return 0
      }
      if isEcho {
        table.requestClose(id, code: 1009, reason: "message too big")
        return 0
      }
      service.handler?.transportRejectedTooLarge(id)
      return 0
    }

    let chunk = UnsafeRawBufferPointer(start: input, count: input == nil ? 0 : length)
    let isFinal = lws_is_final_fragment(wsi) != 0
    if isEcho && isFinal && service.inbound[slot].bytes.isEmpty {
      // A whole message in one piece: straight into the frame, with a single copy.
      _ = table.enqueue(OutboundFrame(kind: isBinary ? .binary : .text, bytes: chunk), to: id)
      return 0
    }
    let message: [UInt8]
    if isFinal && service.inbound[slot].bytes.isEmpty {
      message = Array(chunk)
    } else {
      service.inbound[slot].bytes.append(contentsOf: chunk)
      guard isFinal else { return 0 }
      message = service.inbound[slot].bytes
      service.inbound[slot].bytes = []
    }

    if isEcho {
      _ = table.enqueue(OutboundFrame(kind: isBinary ? .binary : .text, bytes: message), to: id)
    } else if isBinary {
      // Only the handler knows which binary messages are chunks of an announced upload.
      if service.handler?.transportReceived(id, binary: message) != true {
        service.inbound[slot] = InboundMessage(rejected: true)
        table.requestClose(id, code: 1003, reason: "binary messages are not accepted")
      }
    } else {
      service.handler?.transportReceived(id, message: message)
    }
    return 0
  }
}
