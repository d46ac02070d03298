import Foundation

/// The demo's share service: a journal of the fasts people shared.
///
/// It stands in for a social network so that the demo is deterministic: a fast that
/// lasted at least a second is recorded (once, however often it is shared), an empty
/// one is refused with ``FastSharingError/emptyFast``.
///
/// ```swift
/// let journal = FastJournal()
/// try await journal.record(FastSummary(fastNumber: 1, seconds: 90))
/// await journal.entries  // [FastSummary(fastNumber: 1, seconds: 90)]
/// ```
public actor FastJournal {
  /// The shared fasts, in the order they were first shared.
  public private(set) var entries: [FastSummary] = []

  public init() {}

  /// Records `summary`, replacing an earlier entry of the same fast.
  public func record(_ summary: FastSummary) throws {
    guard summary.seconds > 0 else { throw FastSharingError.emptyFast }
    if let index = entries.firstIndex(where: { $0.fastNumber == summary.fastNumber }) {
      entries[index] = summary
    } else {
      entries.append(summary)
    }
  }
}

/// Why a fast could not be shared.
public enum FastSharingError: LocalizedError, Equatable, CustomStringConvertible {
  /// The fast ended before its first second.
  case emptyFast

  public var errorDescription: String? { description }

  public var description: String {
    switch self {
    case .emptyFast: "There is nothing to share: this fast ended before it began."
    }
  }
}
