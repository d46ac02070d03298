import Foundation
import StatecastTransport

/// How many new durable rooms one viewer, and one peer address, may create within a
/// window: a room is created by the first change anyone makes to it, and that change is
/// refused (`rate_limited`) beyond the quota. Rooms that already exist are not counted.
///
/// Why it exists: any visitor can name a room, and every named room that changes is
/// stored until its time to live. Four sockets once created sixteen thousand rooms in
/// eleven seconds. Per viewer, so that one signed-in person cannot; per address, so that
/// guests (a new viewer per socket) cannot either.
///
///     let quota = NewRoomQuota(perViewer: 50, perAddress: 500, window: .seconds(3_600))
///     quota.admit(viewer: "v-ada", address: "192.0.2.7")   // true, until 50 in the hour
final class NewRoomQuota: Sendable {
  private let perViewer: Int
  private let perAddress: Int
  private let window: Duration
  private struct Tables {
    /// When each key created its rooms within the window, oldest first.
    var byViewer: [String: [ContinuousClock.Instant]] = [:]
    var byAddress: [String: [ContinuousClock.Instant]] = [:]
    var lastSweep = ContinuousClock.now
  }
  private let tables = Locked(Tables())

  /// The answer to an action refused for the quota.
  static let refusal = ProtocolError(
    .rateLimited, "too many new rooms from you: change a room that exists, or try later")

  init(perViewer: Int, perAddress: Int, window: Duration) {
    self.perViewer = perViewer
    self.perAddress = perAddress
    self.window = window
  }

  /// Counts one new room for `viewer` and `address` and returns `true`, or returns
  /// `false` (counting nothing) when either is at its quota. An empty address (not
  /// known) is counted per viewer only.
  func admit(viewer: String, address: String, now: ContinuousClock.Instant = .now) -> Bool {
    tables.withLock { tables in
      let since = now - window
      if now - tables.lastSweep >= window {
        tables.lastSweep = now
        tables.byViewer = tables.byViewer.filter { $0.value.last.map { $0 > since } ?? false }
        tables.byAddress = tables.byAddress.filter { $0.value.last.map { $0 > since } ?? false }
      }
      tables.byViewer[viewer, default: []].removeAll { $0 <= since }
      guard tables.byViewer[viewer]!.count < perViewer else { return false }
      if !address.isEmpty {
        tables.byAddress[address, default: []].removeAll { $0 <= since }
        guard tables.byAddress[address]!.count < perAddress else { return false }
        tables.byAddress[address]!.append(now)
      }
      tables.byViewer[viewer]!.append(now)
      return true
    }
  }
}

/// Who an action that may create a room comes from: the viewer and the peer address a
/// ``NewRoomQuota`` counts it against.
struct RoomCreator: Sendable, Equatable {
  var viewer: String
  var address: String
}
