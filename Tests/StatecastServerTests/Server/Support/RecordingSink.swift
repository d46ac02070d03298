import Foundation
import StatecastJSON

@testable import StatecastServer

/// Records frames per connection and answers `congested` while told to.
final class RecordingSink: FrameSink, @unchecked Sendable {
  private let lock = NSLock()
  private var frames: [ConnectionID: [JSON]] = [:]
  private var isCongested = false

  /// Whether sends answer `.congested` (the socket's backlog is over its watermark).
  var congested: Bool {
    get { lock.withLock { isCongested } }
    set { lock.withLock { isCongested = newValue } }
  }

  func send(_ frame: OutboundFrame, to connection: ConnectionID) -> SendOutcome {
    let message = try! JSON(parsing: frame.payload)
    return lock.withLock {
      frames[connection, default: []].append(message)
      return isCongested ? .congested : .queued
    }
  }

  func broadcast(_ frame: OutboundFrame, to connections: [ConnectionID]) -> BroadcastOutcome {
    var outcome = BroadcastOutcome()
    for connection in connections where send(frame, to: connection) == .congested {
      outcome.congested.append(connection)
    }
    return outcome
  }

  func close(_ connection: ConnectionID, code: UInt16, reason: String) {}

  func take(_ connection: ConnectionID) -> [JSON] {
    lock.withLock { frames.removeValue(forKey: connection) ?? [] }
  }
}
