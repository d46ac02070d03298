/// Where topic hosts and connections put outgoing frames: the WebSocket transport in
/// the server, an in-memory recorder in unit tests.
///
/// Both methods may be called from any thread and must not block.
protocol FrameSink: Sendable {
  /// Queues `frame` for the connection; `.congested` means the connection's queue is
  /// now above its high watermark and the caller should stop queueing patches to it.
  @discardableResult func send(_ frame: OutboundFrame, to connection: ConnectionID) -> SendOutcome
  /// Queues one shared `frame` for every connection (the payload is not copied per
  /// connection); reports those that are now congested or closed.
  func broadcast(_ frame: OutboundFrame, to connections: [ConnectionID]) -> BroadcastOutcome
  /// Closes the connection with a WebSocket close code once its queued frames are out.
  func close(_ connection: ConnectionID, code: UInt16, reason: String)
}
