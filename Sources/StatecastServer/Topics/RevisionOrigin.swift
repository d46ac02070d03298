import Foundation

/// Where a topic's revisions start: decided here, once, for every topic a route opens.
///
/// A store made afresh by this process starts at revision 0, and every revision of it is
/// this process's own. A store whose state came from elsewhere (storage, after a
/// restart; a room that another process of a cluster may have run before) starts at the
/// clock instead: members may hold revisions of an earlier run, which started at that
/// run's clock and moved by one per patch, so the new ones are above them and revisions
/// keep increasing. Its history before that start is unknown, so a member resuming from
/// an earlier revision gets a snapshot.
enum RevisionOrigin: Equatable {
  /// Revisions from 0, the whole history known.
  case fresh
  /// Revisions from `revision` (the clock when the topic opened), the history before it unknown.
  case continued(revision: Int)

  /// The origin of a topic whose state was `restored` from storage, or that is a room
  /// `clustered` processes share.
  static func of(restored: Bool, clustered: Bool) -> RevisionOrigin {
    restored || clustered ? .continued(revision: Int(Date().timeIntervalSince1970 * 1_000)) : .fresh
  }

  /// The revision the topic's view starts at.
  var revision: Int {
    switch self {
    case .fresh: 0
    case .continued(let revision): revision
    }
  }

  /// Whether every revision from the first is known (a resume from any of them can be
  /// answered with patches).
  var historyStartsKnown: Bool { self == .fresh }
}
