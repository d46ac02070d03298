internal import CLibWebSockets

/// One WebSocket message to send: immutable bytes with the headroom libwebsockets needs
/// in front of them, shareable by any number of connections.
///
/// Why a class and not `[UInt8]`: a patch of a shared store goes to every member. The
/// frame is encoded once and the same buffer is queued to each connection by reference;
/// no connection copies the payload. The transport writes each frame's header into the
/// headroom just before sending, always on its service thread, so one buffer
/// serves every write in turn (the header of a server frame depends only on its length
/// and kind, so every write puts the same bytes there).
///
///     let frame = OutboundFrame(text: #"{"op":"patch","topic":"todos","rev":8,"ops":[]}"#)
///     transport.send(frame, to: members)   // one buffer, many connections
///
/// Or write the payload in place, without an intermediate array:
///
///     let frame = OutboundFrame(count: json.utf8.count) { buffer in
///       _ = buffer.initializeMemory(as: UInt8.self, from: json.utf8)
///     }
package final class OutboundFrame: @unchecked Sendable {
  // Sendable: the payload is written once in `init` and only read afterwards; the
  // headroom in front of it is touched by the transport's service thread only.

  /// Whether the frame is sent as a text or a binary WebSocket message.
  package enum Kind: Sendable, Equatable {
    case text
    case binary
  }

  /// The kind of WebSocket message.
  package let kind: Kind
  /// The payload's length in bytes (without the headroom).
  package let count: Int
  /// `headroom + count` bytes; the payload starts at `headroom`.
  private let storage: UnsafeMutableRawPointer

  /// The bytes libwebsockets needs in front of every payload (`LWS_PRE`).
  package static let headroom = Int(statecast_lws_pre)

  /// A frame of `count` bytes whose payload `initialize` writes in place. Any thread.
  ///
  /// - Parameters:
  ///   - kind: text (the default) or binary.
  ///   - count: the payload's exact length.
  ///   - initialize: writes all `count` bytes into the buffer it is given.
  package init(
    kind: Kind = .text, count: Int,
    initializingWith initialize: (UnsafeMutableRawBufferPointer) throws -> Void
  ) rethrows {
    precondition(count >= 0, "a frame cannot have a negative length")
    self.kind = kind
    self.count = count
    storage = .allocate(byteCount: Self.headroom + max(count, 1), alignment: 16)
    do {
      try initialize(UnsafeMutableRawBufferPointer(start: storage + Self.headroom, count: count))
    } catch {
      storage.deallocate()
      throw error
    }
  }

  /// A text frame holding a copy of `bytes`, which the caller promises are UTF-8.
  package convenience init(text bytes: some Collection<UInt8>) {
    self.init(kind: .text, bytes: bytes)
  }

  /// A text frame holding the UTF-8 of `text`.
  package convenience init(text: String) {
    var text = text
    let count = text.utf8.count
    self.init(kind: .text, count: count) { buffer in
      text.withUTF8 { utf8 in buffer.copyMemory(from: UnsafeRawBufferPointer(utf8)) }
    }
  }

  /// A binary frame holding a copy of `bytes`.
  package convenience init(binary bytes: some Collection<UInt8>) {
    self.init(kind: .binary, bytes: bytes)
  }

  /// A frame holding a copy of `bytes`.
  package convenience init(kind: Kind, bytes: some Collection<UInt8>) {
    self.init(kind: kind, count: bytes.count) { buffer in
      let copied: Void? = bytes.withContiguousStorageIfAvailable { contiguous in
        buffer.copyMemory(from: UnsafeRawBufferPointer(contiguous))
      }
      if copied == nil {
        _ = buffer.initializeMemory(as: UInt8.self, from: bytes)
      }
    }
  }

  deinit {
    storage.deallocate()
  }

  /// Lends the payload's bytes for reading.
  package func withPayload<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
    try body(UnsafeRawBufferPointer(start: storage + Self.headroom, count: count))
  }

  /// The payload as a new array (a copy; for tests and logs).
  package var payload: [UInt8] {
    withPayload { Array($0) }
  }

  /// The payload's first byte, preceded by `headroom` writable bytes, for `lws_write`.
  ///
  /// Service thread only: the frame's header is written into the headroom.
  package var writablePayload: UnsafeMutablePointer<UInt8> {
    (storage + Self.headroom).assumingMemoryBound(to: UInt8.self)
  }
}
