import Foundation
import StatecastTransport

/// The idempotency keys of a topic's applied actions: a retried action whose key is
/// here is answered `ok` without being applied again.
///
/// A client sends a key with an action when it may have to send the action again
/// without knowing whether the first attempt took effect: its socket dropped before the
/// reply, or the process that owned the room died after storing the change and the
/// reply said `unavailable`. The key is remembered once the action is applied (for a
/// durable room: journaled in the same write as its change, so the next owner loads it
/// with the room). While an attempt is in flight, a second attempt with the same key
/// waits for it and is answered as it is, so two sockets retrying at once apply the
/// action once.
///
/// Bounded: the latest `capacity` keys are kept, oldest forgotten first.
final class AppliedKeys: Sendable {
  /// How many keys a shared topic remembers: those of every member, more than are sent
  /// within any sensible retry window at the server's allowance (a storage journal
  /// keeps ``JournalEntry/keptKeyRevisions`` revisions' worth).
  static let sharedCapacity = 1_024
  /// How many keys a tab's own store remembers: only its tab retries, a few actions at
  /// most, and every active tab pays for what it keeps (about 100 bytes a key).
  static let ownCapacity = 64

  /// The longest key accepted: 64 characters of `[A-Za-z0-9_-]` (the runtime sends 22).
  static let maxKeyLength = 64

  /// The keys remembered, oldest forgotten first, and the attempts in flight.
  private struct Keys: Sendable {
    var applied: Set<String>
    var order: [String]
    var oldest = 0
    let capacity: Int
    /// Keys whose first attempt is still in flight → the later attempts waiting for it.
    var inFlight: [String: [CheckedContinuation<Bool, Never>]] = [:]

    /// Adds `key`, forgetting the oldest once over capacity.
    mutating func remember(_ key: String) {
      guard applied.insert(key).inserted else { return }
      if order.count < capacity {
        order.append(key)
      } else {
        applied.remove(order[oldest])
        order[oldest] = key
        oldest = (oldest + 1) % capacity
      }
    }
  }
  private let keys: Locked<Keys>

  /// - Parameters:
  ///   - restored: keys applied before (a durable room's journal), oldest first.
  ///   - capacity: how many keys to remember.
  init(restored: [String] = [], capacity: Int = sharedCapacity) {
    let kept = restored.suffix(capacity)
    keys = Locked(Keys(applied: Set(kept), order: Array(kept), capacity: capacity))
  }

  /// Why `key` cannot be an idempotency key, or `nil` if it can.
  static func problem(with key: String) -> String? {
    guard !key.isEmpty, key.utf8.count <= maxKeyLength,
      key.utf8.allSatisfy({ byte in
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
          || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
          || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "-")
          || byte == UInt8(ascii: "_")
      })
    else { return "\"key\" must be 1 to \(maxKeyLength) characters of A-Z, a-z, 0-9, - and _" }
    return nil
  }

  /// Runs `apply` unless an action with `key` was applied already (then returns at
  /// once) or is being applied (then waits for that attempt; if it failed, this one
  /// applies). Without a key, just runs `apply`.
  func perform(key: String?, _ apply: () async throws(ProtocolError) -> Void) async throws(ProtocolError) {
    guard let key else { return try await apply() }
    while true {
      switch claim(key) {
      case .applied:
        return
      case .claimed:
        do {
          try await apply()
        } catch {
          finish(key, applied: false)
          throw error
        }
        finish(key, applied: true)
        return
      case .inFlight:
        let firstApplied = await withCheckedContinuation { continuation in
          let waiting = keys.withLock { keys -> Bool in
            guard keys.inFlight[key] != nil else { return false }
            keys.inFlight[key]!.append(continuation)
            return true
          }
          // The first attempt ended between `claim` and here: look again.
          if !waiting { continuation.resume(returning: false) }
        }
        if firstApplied { return }
      }
    }
  }

  /// Whether `key` is remembered as applied.
  func contains(_ key: String) -> Bool {
    keys.withLock { $0.applied.contains(key) }
  }

  private enum Claim { case applied, claimed, inFlight }

  private func claim(_ key: String) -> Claim {
    keys.withLock { keys in
      if keys.applied.contains(key) { return .applied }
      if keys.inFlight[key] != nil { return .inFlight }
      keys.inFlight[key] = []
      return .claimed
    }
  }

  private func finish(_ key: String, applied wasApplied: Bool) {
    let waiters = keys.withLock { keys -> [CheckedContinuation<Bool, Never>] in
      if wasApplied { keys.remember(key) }
      return keys.inFlight.removeValue(forKey: key) ?? []
    }
    for waiter in waiters { waiter.resume(returning: wasApplied) }
  }
}
