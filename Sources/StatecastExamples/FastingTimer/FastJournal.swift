import Foundation
public import FoundationEssentials

/// The demo's share service: a journal of the fasts people shared.
///
/// It stands in for a social network so that the demo is deterministic: a fast that
/// lasted at least a second is recorded, an empty one is refused with
/// ``FastSharingError/emptyFast``. One journal may serve many stores (the demo shares
/// one between all browsers); each store's reducer already makes sure a fast is
/// shared once at a time.
///
/// ```swift
/// let journal = FastJournal()
/// try await journal.record(FastSummary(fastNumber: 1, seconds: 90))
/// await journal.entries  // [FastSummary(fastNumber: 1, seconds: 90)]
/// ```
public actor FastJournal {
  /// The shared fasts, in the order they were shared.
  public private(set) var entries: [FastSummary] = []

  public init() {}

  /// Records `summary`, or refuses it when the fast lasted less than a second.
  public func record(_ summary: FastSummary) throws {
    guard summary.seconds > 0 else { throw FastSharingError.emptyFast }
    entries.append(summary)
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
