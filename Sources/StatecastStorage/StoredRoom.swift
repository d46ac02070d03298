public import Foundation
public import StatecastJSON

/// A room as stored: its state now, the revision that state is at, and when it was
/// last changed.
public struct StoredRoom: Sendable, Equatable {
  public var id: String
  public var revision: Int64
  public var state: JSON
  public var lastUsed: Date

  public init(id: String, revision: Int64, state: JSON, lastUsed: Date) {
    self.id = id
    self.revision = revision
    self.state = state
    self.lastUsed = lastUsed
  }
}
