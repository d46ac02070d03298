import Foundation
public import FoundationEssentials

/// The live store of favourite primes: a JSON array of integers in one file.
///
/// An actor, so that saves from one process never interleave; each save replaces the
/// file atomically (written aside, then renamed), so a reader never sees half a list.
/// A save whose task was cancelled before it got its turn is skipped, which keeps the
/// newest list when saves are issued with `cancelInFlight`.
///
/// ```swift
/// let file = FavoritePrimesFile(url: dataDirectory.appendingPathComponent("favorite-primes.json"))
/// try await file.save([2, 3, 5])
/// try await file.load()  // [2, 3, 5]
/// ```
public actor FavoritePrimesFile {
  /// Where the list is kept.
  public nonisolated let url: URL

  public init(url: URL) {
    self.url = url
  }

  /// The saved primes; an empty list when nothing was saved yet.
  public func load() throws -> [Int] {
    let data: Data
    do {
      data = try Data(contentsOf: url)
    } catch CocoaError.fileReadNoSuchFile {
      return []
    }
    do {
      return try JSONDecoder().decode([Int].self, from: data)
    } catch {
      throw FavoritePrimesFileError.unreadable(path: url.path)
    }
  }

  /// Replaces the saved primes with `primes`.
  public func save(_ primes: [Int]) throws {
    try Task.checkCancellation()
    try FileManager.default.createDirectory(
      at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    try JSONEncoder().encode(primes).write(to: url, options: .atomic)
  }
}

/// Why the favourites file could not be used.
public enum FavoritePrimesFileError: LocalizedError, Equatable, CustomStringConvertible {
  /// The file exists but does not hold a JSON array of integers.
  case unreadable(path: String)

  public var errorDescription: String? { description }

  public var description: String {
    switch self {
    case .unreadable(let path): "The saved favourite primes at \(path) are not a list of numbers."
    }
  }
}
