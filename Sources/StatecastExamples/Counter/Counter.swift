public import Statecast

/// A counter that asks "what is the nth prime?" and keeps favourite primes: Point-Free's
/// "composable effects" example, with the browser as the view.
///
/// What it shows: effects are values the reducer returns. Asking for the nth prime
/// returns a `.run` effect, marked `.cancellable(id:cancelInFlight: true)` so that a
/// second question cancels the first and a cancel button cancels it by id. Favourite
/// primes are saved through a dependency (a closure, a JSON file when live) and loaded
/// by an event source when the store starts. State changes only through the actions
/// those effects send back.
///
/// ## View (JSON)
/// ```json
/// {"count": 5, "isPrime": true, "isFavorite": false,
///  "canAddFavorite": true, "canRemoveFavorite": false,
///  "canAskNthPrime": true, "isNthPrimeLoading": false,
///  "nthPrimeQuestion": "What is the 5th prime?",
///  "nthPrimeAnswer": "The 5th prime is 11.",      // absent until answered
///  "nthPrimeError": "…",                          // absent unless the computation failed
///  "favoritePrimes": [{"prime": 2}, {"prime": 5}],
///  "isLoadingFavorites": false,
///  "favoritesError": "…"}                         // absent unless loading/saving failed
/// ```
///
/// ## Client actions
/// `{"increment":{}}`, `{"decrement":{}}`, `{"askNthPrime":{}}`, `{"cancelNthPrime":{}}`,
/// `{"addFavoritePrime":{}}` (adds the current count when it is prime),
/// `{"removeFavoritePrime":{"prime":7}}`, `{"restoreCount":{"count":3}}` (the debug
/// panel's "Restore this revision", which the demo allows in a tab's own counter only).
public enum Counter: Feature {
  /// The largest `n` the counter answers "what is the nth prime?" for (the 100,000th
  /// prime is 1,299,709), so that one request cannot occupy the server for long.
  public static let largestAskableN = 100_000

  /// The whole state of one counter.
  public struct State: Codable, Equatable, Sendable {
    public var count: Int
    public var nthPrime: NthPrime
    /// The favourite primes in the order they were added.
    public var favoritePrimes: [Int]
    /// True until the saved favourites have been read (or failed to be); favourites
    /// cannot be edited meanwhile, so an early edit never overwrites the saved list.
    /// Not stored: every store loads the favourites again, so a stored room always
    /// starts loading, and the load finishing is no change to store (a room that was
    /// only joined is not written).
    public var isLoadingFavorites = true
    /// Why the favourites could not be loaded or saved, until the next edit.
    public var favoritesError: String?

    private enum CodingKeys: String, CodingKey {
      case count, nthPrime, favoritePrimes, favoritesError
    }

    public init(
      count: Int = 0,
      nthPrime: NthPrime = .notAsked,
      favoritePrimes: [Int] = [],
      isLoadingFavorites: Bool = true,
      favoritesError: String? = nil
    ) {
      self.count = count
      self.nthPrime = nthPrime
      self.favoritePrimes = favoritePrimes
      self.isLoadingFavorites = isLoadingFavorites
      self.favoritesError = favoritesError
    }
  }

  /// Where the "what is the nth prime?" question stands.
  public enum NthPrime: Codable, Equatable, Sendable {
    case notAsked
    case computing(n: Int)
    case answered(n: Int, prime: Int)
    case failed(n: Int, message: String)
  }

  /// Everything that can happen to a counter.
  public enum Action: Equatable, Sendable {
    /// Something the browser asked for.
    case client(ClientAction)
    /// The nth-prime effect finished with its answer.
    case nthPrimeResponse(n: Int, prime: Int)
    /// The nth-prime effect failed (cancellation is not a failure and sends nothing).
    case nthPrimeFailed(n: Int, message: String)
    /// The favourites event source read the saved favourites.
    case favoritePrimesLoaded([Int])
    /// The favourites event source could not read them.
    case favoritePrimesLoadFailed(message: String)
    /// Saving the favourites failed.
    case favoritePrimesSaveFailed(message: String)
  }

  /// What a browser may send, decoded from e.g. `{"increment":{}}`.
  public enum ClientAction: Codable, Equatable, Sendable {
    case increment
    case decrement
    case askNthPrime
    case cancelNthPrime
    case addFavoritePrime
    case removeFavoritePrime(prime: Int)
    /// Puts the count back to what an earlier revision showed: restoring a revision is an
    /// action like any other, so the reducer and the route's access rules decide.
    case restoreCount(count: Int)
  }

  /// Ids under which the counter's effects can be cancelled.
  enum CancelID: Hashable, Sendable {
    case nthPrime
    case saveFavorites
  }
}

extension Counter {
  /// Browser actions enter the store as `.client`, beside the actions only the server sends.
  public static func embed(_ action: ClientAction) -> Action { .client(action) }
}
