/// The last patch frames of a topic, kept so that a browser that reconnects within the
/// grace period gets exactly the patches it missed instead of a whole snapshot.
///
/// A fixed-size ring: appending never allocates once full, and a resume that asks for
/// revisions older than the ring holds falls back to a snapshot.
struct PatchHistory: Sendable {
  private var frames: [OutboundFrame] = []
  private var head = 0
  /// The revision of the newest frame (the frame at `newestRev` is the patch from
  /// `newestRev - 1` to `newestRev`).
  private var newestRev = 0
  let capacity: Int

  /// The oldest revision a client may hold and still be caught up by frames (or by
  /// nothing at all, when it is the newest).
  private let oldestKnownRev: Int

  /// - Parameters:
  ///   - revision: the topic's revision now; frames appended later follow it.
  ///   - startsKnown: whether a client at `revision` has the topic's current state. A
  ///     topic restored from storage says no: a client may hold that number from
  ///     before the restart with another state, so it gets a snapshot.
  init(capacity: Int, revision: Int = 0, startsKnown: Bool = true) {
    self.capacity = capacity
    self.newestRev = revision
    self.oldestKnownRev = startsKnown ? revision : revision + 1
  }

  /// Records the patch frame that moved the topic to `rev` (which is the previous one + 1).
  mutating func append(_ frame: OutboundFrame, rev: Int) {
    // The revision moves on even when no frame is kept, so that nobody is told that
    // nothing was missed.
    newestRev = rev
    guard capacity > 0 else { return }
    if frames.count < capacity {
      frames.append(frame)
    } else {
      frames[head] = frame
      head = (head + 1) % capacity
    }
  }

  /// The frames that take a client from `rev` to the newest revision, oldest first, or
  /// `nil` if the history no longer reaches back to `rev`.
  func frames(after rev: Int) -> [OutboundFrame]? {
    let missing = newestRev - rev
    guard rev >= oldestKnownRev, missing >= 0, missing <= frames.count else { return nil }
    let oldest = frames.count - missing
    return (oldest..<frames.count).map { frames[(head + $0) % frames.count] }
  }
}
