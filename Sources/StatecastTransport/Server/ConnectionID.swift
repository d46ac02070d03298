/// Names one WebSocket connection of a ``WebSocketTransport`` for its whole life.
///
/// An id is never reused while the transport runs (a slot number plus a generation), so
/// a late `send` to a connection that has closed is answered `.closed` instead of
/// reaching a newer connection that took the same slot.
package struct ConnectionID: Hashable, Sendable, CustomStringConvertible {
  /// The slot number in the low 32 bits and the slot's generation in the high 32 bits.
  package let rawValue: UInt64

  package init(slot: UInt32, generation: UInt32) {
    rawValue = UInt64(generation) << 32 | UInt64(slot)
  }

  package init(rawValue: UInt64) {
    self.rawValue = rawValue
  }

  package var slot: UInt32 { UInt32(truncatingIfNeeded: rawValue) }
  package var generation: UInt32 { UInt32(truncatingIfNeeded: rawValue >> 32) }

  package var description: String { "connection \(slot).\(generation)" }
}
