/// The connections of a broadcast (`WebSocketTransport.send(_:to:)` with many ids) that
/// did not simply queue the frame: the protocol layer treats them as it treats the
/// single-connection ``SendOutcome``s `.congested` and `.closed`.
package struct BroadcastOutcome: Sendable, Equatable {
  /// Connections whose backlog is now above the high watermark (the frame is queued).
  package var congested: [ConnectionID] = []
  /// Connections that are closed or closing (the frame was dropped for them).
  package var closed: [ConnectionID] = []

  package init() {}
}
