internal import CLibWebSockets

/// Frames of one connection gathered in one `SERVER_WRITEABLE` and sent with a single
/// `send()`.
///
/// Why: an action's patch and its reply are queued together, and a member of a busy room
/// often has several patches waiting. Written one `lws_write` each, every frame is a
/// `send()` of its own, and with `TCP_NODELAY` a segment of its own that wakes the peer
/// again. Gathered, they leave as one segment that the peer reads in one wake-up, for one
/// system call. (Holding the socket with `TCP_CORK` around the writes gave the same
/// segment but cost two `setsockopt` calls on top of the sends.)
///
/// How: a server's frame header depends only on the payload's kind and length
/// (RFC 6455 §5.2; a server never masks), so the batch writes each header itself and
/// hands the bytes to libwebsockets raw (`LWS_WRITE_HTTP`, which a WebSocket connection
/// sends as they are, and buffers what the socket does not take at once). A batch of one
/// frame is written from the frame's own buffer, its header in the headroom in front of
/// the payload (where libwebsockets would put it); several are copied one after the other
/// into a buffer the batch reuses. The server negotiates no extension (no
/// `permessage-deflate`), so frames on the wire are exactly these bytes.
///
/// Why raw even for one frame: a batch can be written while libwebsockets still holds
/// part of an earlier write (it sends at most ``byteLimit`` bytes per `send()` and keeps
/// the rest). Its own frame write would then count the new frame as partly sent and send
/// the rest of it later without a header; a raw write is queued whole behind those bytes.
///
/// Service thread only (one batch per transport, reused by every connection).
struct FrameBatch {
  /// The most bytes a batch gathers: what libwebsockets sends with one `send()` before
  /// it buffers the rest (the protocol's `tx_packet_size`).
  static let byteLimit = ServerContext.responseHeaderRoom

  private var frames: [OutboundFrame] = []
  /// The gathered frames' length on the wire, headers included.
  private var wireBytes = 0
  /// The frames of a batch of several, headers and payloads; reused from batch to batch.
  private var buffer: [UInt8] = []

  /// The longest payload that still fits in the batch with its header (any length when
  /// the batch is empty: a long frame is written on its own).
  var budget: Int {
    frames.isEmpty ? .max : max(0, Self.byteLimit - wireBytes - Self.longestHeader)
  }

  mutating func append(_ frame: OutboundFrame) {
    frames.append(frame)
    wireBytes += Self.headerLength(frame.count) + frame.count
  }

  /// Writes the gathered frames to `wsi` and empties the batch; `false` when the write
  /// failed (the connection is to be closed).
  mutating func flush(to wsi: OpaquePointer) -> Bool {
    defer {
      frames.removeAll(keepingCapacity: true)
      wireBytes = 0
    }
    switch frames.count {
    case 0:
      return true
    case 1:
      let frame = frames[0]
      let headerLength = Self.headerLength(frame.count)
      let start = frame.writablePayload - headerLength
      Self.writeHeader(of: frame, at: start)
      return lws_write(wsi, start, headerLength + frame.count, LWS_WRITE_HTTP) >= 0
    default:
      buffer.removeAll(keepingCapacity: true)
      buffer.reserveCapacity(wireBytes)
      for frame in frames {
        Self.appendHeader(of: frame, to: &buffer)
        frame.withPayload { buffer.append(contentsOf: $0) }
      }
      let length = buffer.count
      return buffer.withUnsafeMutableBufferPointer { bytes in
        lws_write(wsi, bytes.baseAddress!, length, LWS_WRITE_HTTP) >= 0
      }
    }
  }

  private static let longestHeader = 10

  /// The header's length for a payload of `count` bytes: 2, 4 or 10 (RFC 6455 §5.2).
  static func headerLength(_ count: Int) -> Int {
    count < 126 ? 2 : count <= 0xFFFF ? 4 : 10
  }

  /// Appends a final, unmasked frame's header: FIN and the opcode, then the length.
  static func appendHeader(of frame: OutboundFrame, to buffer: inout [UInt8]) {
    let length = headerLength(frame.count)
    let start = buffer.count
    buffer.append(contentsOf: repeatElement(0, count: length))
    buffer.withUnsafeMutableBufferPointer { writeHeader(of: frame, at: $0.baseAddress! + start) }
  }

  /// Writes a final, unmasked frame's header (``headerLength(_:)`` bytes) at `start`.
  static func writeHeader(of frame: OutboundFrame, at start: UnsafeMutablePointer<UInt8>) {
    start[0] = frame.kind == .text ? 0x81 : 0x82
    let count = frame.count
    if count < 126 {
      start[1] = UInt8(count)
    } else if count <= 0xFFFF {
      start[1] = 126
      start[2] = UInt8(count >> 8)
      start[3] = UInt8(count & 0xFF)
    } else {
      start[1] = 127
      for index in 0..<8 { start[2 + index] = UInt8((count >> (56 - 8 * index)) & 0xFF) }
    }
  }
}
