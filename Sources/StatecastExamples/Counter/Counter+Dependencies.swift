public import Foundation
import Statecast

extension Counter {
  /// What the counter needs from the outside world, as plain closures that tests
  /// replace.
  public struct Dependencies: Sendable {
    /// Answers "what is the nth prime?" (1-based); must stop when its task is cancelled.
    public var nthPrime: @Sendable (_ n: Int) async throws -> Int
    /// Reads the saved favourite primes.
    public var loadFavoritePrimes: @Sendable () async throws -> [Int]
    /// Saves the favourite primes, replacing what was saved.
    public var saveFavoritePrimes: @Sendable (_ primes: [Int]) async throws -> Void

    public init(
      nthPrime: @escaping @Sendable (_ n: Int) async throws -> Int,
      loadFavoritePrimes: @escaping @Sendable () async throws -> [Int],
      saveFavoritePrimes: @escaping @Sendable (_ primes: [Int]) async throws -> Void
    ) {
      self.nthPrime = nthPrime
      self.loadFavoritePrimes = loadFavoritePrimes
      self.saveFavoritePrimes = saveFavoritePrimes
    }

    /// The real thing: primes computed on the server after a short "thinking" delay
    /// (standing in for the source's web service, and long enough to press cancel),
    /// favourites kept in `favorite-primes.json` inside `dataDirectory`.
    ///
    /// - Parameters:
    ///   - dataDirectory: where the favourites file lives; created when first saved.
    ///   - clock: the clock of the thinking delay.
    ///   - thinkingTime: how long a question takes at least.
    public static func live(
      dataDirectory: URL,
      clock: any Clock<Duration> = ContinuousClock(),
      thinkingTime: Duration = .milliseconds(800)
    ) -> Self {
      let file = FavoritePrimesFile(url: dataDirectory.appendingPathComponent("favorite-primes.json"))
      return Self(
        nthPrime: { n in
          try await clock.sleep(for: thinkingTime)
          return try await Primes.nth(n)
        },
        loadFavoritePrimes: { try await file.load() },
        saveFavoritePrimes: { primes in try await file.save(primes) }
      )
    }
  }
}
