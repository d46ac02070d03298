import StatecastJSON

/// What a follower checks before it relays an owner's frame to one of its sockets, so
/// that a member never sees a revision gap (PROTOCOL.md: revisions increase by exactly
/// one per patch) when cluster messages were lost: while the database was unreachable,
/// or when the owner could not send a batch.
///
/// Per socket and room it remembers the last revision relayed. A patch that does not
/// follow it is dropped, and the member waits for a fresh snapshot (the caller joins it
/// to the owner again); while it waits every patch of that room is dropped. A snapshot
/// always passes and sets the revision. Not thread-safe: owned by ``ClusterNode`` under
/// its lock.
struct RelayGuard {
  enum Verdict: Equatable {
    case relay
    case drop
    /// Dropped, and the member must join the owner again to get a snapshot.
    case gap
  }

  private struct Key: Hashable {
    var connection: UInt64
    var topic: String
  }

  /// The last revision relayed, or `nil` while a snapshot is awaited.
  private var relayed: [Key: Int?] = [:]
  /// Awaited snapshots already asked of the owner (a congested socket drains many times
  /// before its snapshot comes: it asks once).
  private var requested: Set<Key> = []

  mutating func admit(_ head: FrameHead, to connection: UInt64) -> Verdict {
    let key = Key(connection: connection, topic: head.topic)
    if head.isSnapshot {
      relayed[key] = .some(head.rev)
      requested.remove(key)
      return .relay
    }
    switch relayed[key] {
    case nil:
      // Nothing relayed yet on this socket (a resume replays from the member's own
      // revision): the owner's stream is taken as it starts.
      relayed[key] = .some(head.rev)
      return .relay
    case .some(nil):
      return .drop
    case .some(.some(let last)):
      if head.rev == last + 1 {
        relayed[key] = .some(head.rev)
        return .relay
      }
      if head.rev <= last { return .drop }
      relayed[key] = .some(nil)
      return .gap
    }
  }

  /// The member on `connection` is joining the owner again: its patches are dropped
  /// until the snapshot comes.
  mutating func awaitSnapshot(of topic: String, on connection: UInt64) {
    relayed[Key(connection: connection, topic: topic)] = .some(nil)
  }

  /// Whether the member on `connection` waits for a snapshot of `topic`.
  func isAwaitingSnapshot(of topic: String, on connection: UInt64) -> Bool {
    relayed[Key(connection: connection, topic: topic)] == .some(nil)
  }

  /// Whether to ask the owner for the snapshot the member on `connection` waits for:
  /// `true` once per wait, `false` when it does not wait or has asked already.
  mutating func requestSnapshot(of topic: String, on connection: UInt64) -> Bool {
    let key = Key(connection: connection, topic: topic)
    guard relayed[key] == .some(nil) else { return false }
    return requested.insert(key).inserted
  }

  /// The member left the room on `connection`, or the socket is gone.
  mutating func forget(_ topic: String, on connection: UInt64) {
    let key = Key(connection: connection, topic: topic)
    relayed[key] = nil
    requested.remove(key)
  }

  /// How many socket-room pairs are remembered (for tests).
  var count: Int { relayed.count }

  /// The kind, topic and revision of a `snapshot` or `patch` frame, read from the head
  /// ``ServerMessage`` writes (`{"op":"patch","topic":"...","rev":N,...`); `nil` for
  /// every other frame.
  struct FrameHead: Equatable {
    var isSnapshot: Bool
    var topic: String
    var rev: Int

    init(isSnapshot: Bool, topic: String, rev: Int) {
      self.isSnapshot = isSnapshot
      self.topic = topic
      self.rev = rev
    }

    init?(_ payload: [UInt8]) {
      let isSnapshot: Bool
      let rest: ArraySlice<UInt8>
      if payload.starts(with: Self.snapshotHead) {
        isSnapshot = true
        rest = payload[Self.snapshotHead.count...]
      } else if payload.starts(with: Self.patchHead) {
        isSnapshot = false
        rest = payload[Self.patchHead.count...]
      } else {
        return nil
      }
      // The topic: a JSON string, escapes included.
      guard rest.first == UInt8(ascii: "\"") else { return nil }
      var end = rest.index(after: rest.startIndex)
      while end < rest.endIndex, rest[end] != UInt8(ascii: "\"") {
        end =
          rest.index(end, offsetBy: rest[end] == UInt8(ascii: "\\") ? 2 : 1, limitedBy: rest.endIndex)
          ?? rest.endIndex
      }
      guard end < rest.endIndex, case .string(let topic)? = try? JSON(parsing: rest[...end]) else {
        return nil
      }
      let afterTopic = rest[rest.index(after: end)...]
      guard afterTopic.starts(with: Self.revKey) else { return nil }
      let digits = afterTopic.dropFirst(Self.revKey.count).prefix {
        $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9")
      }
      guard let rev = Int(String(decoding: digits, as: UTF8.self)) else { return nil }
      self.init(isSnapshot: isSnapshot, topic: topic, rev: rev)
    }

    private static let snapshotHead = Array(#"{"op":"snapshot","topic":"#.utf8)
    private static let patchHead = Array(#"{"op":"patch","topic":"#.utf8)
    private static let revKey = Array(#","rev":"#.utf8)
  }
}
