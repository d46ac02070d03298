internal import CLibWebSockets

/// What the service thread writes: queued frames, the transport's pings, the server's
/// close frame, and the wake-ups that ask lws for `SERVER_WRITEABLE`. Service thread.
extension WebSocketTransport {
  /// Writes queued frames while the socket takes them (a bounded number per event, so
  /// one busy connection cannot starve the others), then performs a pending close.
  /// Frames queued together leave together: they are gathered into one `send()`
  /// (``FrameBatch``). Service thread.
  func writeable(_ wsi: OpaquePointer, session: UnsafeMutableRawPointer?) -> Int32 {
    guard let session = session?.assumingMemoryBound(to: statecast_session.self),
      session.pointee.connection != 0, session.pointee.closing == 0
    else { return 0 }
    let id = ConnectionID(rawValue: session.pointee.connection)
    let tellsHandler = session.pointee.endpoint == Endpoint.statecast.rawValue
    let slot = Int(id.slot)
    if slot < service.liveness.count, service.liveness[slot].pingPending {
      service.liveness[slot].pingPending = false
      var ping = [UInt8](repeating: 0, count: Int(statecast_lws_pre)) + Self.pingPayload
      let written = ping.withUnsafeMutableBufferPointer { buffer in
        lws_write(wsi, buffer.baseAddress! + Int(statecast_lws_pre), Self.pingPayload.count, LWS_WRITE_PING)
      }
      if written < 0 { return -1 }
      lws_callback_on_writable(wsi)
      return 0
    }
    var writes = 0
    while true {
      // Gathers what is queued, up to the batch's size and the writes one event may make.
      var more = false
      gathering: while writes < Self.writesPerWriteable {
        switch table.nextWrite(for: id, budget: service.batch.budget) {
        case .idle:
          break gathering
        case .overBudget:
          more = true
          break gathering
        case .close(let close):
          guard service.batch.flush(to: wsi) else { return -1 }
          counters.closed(code: close.code)
          return beginLingeringClose(wsi, session: session, code: close.code, reason: close.reason)
        case .frame(let frame, let drained, let hasMore):
          service.batch.append(frame)
          counters.wrote(bytes: frame.count)
          writes += 1
          more = hasMore
          if drained && tellsHandler {
            // What the handler queues now (a catch-up snapshot) goes after these frames.
            guard service.batch.flush(to: wsi) else { return -1 }
            service.handler?.transportDrained(id)
          }
          if !hasMore { break gathering }
        }
      }
      guard service.batch.flush(to: wsi) else { return -1 }
      guard more else { return 0 }
      if writes >= Self.writesPerWriteable || lws_send_pipe_choked(wsi) != 0 {
        lws_callback_on_writable(wsi)
        return 0
      }
    }
  }

  /// Writes the server's close frame and keeps the connection open, reading and
  /// discarding, until the peer answers with its own close frame or hangs up, for at
  /// most ``lingerSeconds``.
  ///
  /// Why not lws' own close: after writing the close frame, lws 4.1 reads once and then
  /// closes the socket. A peer that is still sending (the rest of an oversized message,
  /// a burst of bad ones) then has bytes in flight to a closed socket, the kernel
  /// answers them with a reset, and the reset destroys what the peer had not read yet:
  /// the error reply and the close frame itself. Service thread, in `SERVER_WRITEABLE`
  /// (so nothing of lws' own is buffered ahead of the frame).
  private func beginLingeringClose(
    _ wsi: OpaquePointer, session: UnsafeMutablePointer<statecast_session>, code: UInt16, reason: String
  ) -> Int32 {
    let code = CloseFrame.sendableCode(code)
    let pre = Int(statecast_lws_pre)
    var frame = [UInt8](repeating: 0, count: pre) + [UInt8(code >> 8), UInt8(code & 0xff)]
    frame += CloseFrame.reasonBytes(reason)
    let length = frame.count - pre
    let written = frame.withUnsafeMutableBufferPointer { buffer in
      lws_write(wsi, buffer.baseAddress! + pre, length, statecast_write_close)
    }
    if written < 0 { return -1 }
    session.pointee.closing = 1
    lws_set_timeout(wsi, PENDING_TIMEOUT_USER_OK, Int32(Self.lingerSeconds))
    return 0
  }

  /// Whether the server has sent its close frame on this connection. Service thread.
  func isClosing(_ session: UnsafeMutableRawPointer?) -> Bool {
    session?.assumingMemoryBound(to: statecast_session.self).pointee.closing == 1
  }

  /// How many frames one `SERVER_WRITEABLE` may write before yielding to other sockets.
  private static let writesPerWriteable = 16

  /// Asks lws for `SERVER_WRITEABLE` on every connection that got frames or a close
  /// since the last wake-up, including the ones over the hard limit (their close frame
  /// is written next, their backlog dropped). Service thread, on
  /// `LWS_CALLBACK_EVENT_WAIT_CANCELLED` and after each callback that can queue frames.
  func wakeConnections() {
    guard !service.destroying else { return }
    table.takeWakes(into: &service.wakes)
    for wake in service.wakes {
      guard let wsi = service.wsi(of: wake.id) else { continue }
      if let kill = wake.kill {
        // The backlog is already dropped: the next `SERVER_WRITEABLE` writes the close
        // frame. A peer that reads nothing at all is closed without one after the linger.
        counters.closed(code: kill.code)
        counters.collapsed()
        lws_set_timeout(wsi, PENDING_TIMEOUT_USER_OK, Int32(Self.lingerSeconds))
      }
      lws_callback_on_writable(wsi)
    }
  }
}
