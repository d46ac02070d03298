/// What happened to a frame handed to ``WebSocketTransport/send(_:to:)``.
///
/// The protocol layer uses it to keep each connection bounded: after `.congested` it stops
/// queueing patches for that connection and, once told that the connection drained,
/// sends one fresh snapshot instead of the backlog.
package enum SendOutcome: Sendable, Equatable {
  /// The frame is queued and the connection's backlog is below the high watermark.
  case queued
  /// The frame is queued, but the backlog is now above the high watermark: stop sending
  /// what can be replaced later. ``TransportHandler/transportDrained(_:)`` follows when
  /// the backlog has been written.
  case congested
  /// The connection is closed or closing; the frame was dropped.
  case closed
}
