extension Counter {
  /// What a browser sees of a counter (see ``Counter`` for the JSON).
  public struct ViewState: Encodable, Equatable, Sendable {
    public var count: Int
    public var isPrime: Bool
    public var isFavorite: Bool
    public var canAddFavorite: Bool
    public var canRemoveFavorite: Bool
    public var canAskNthPrime: Bool
    public var isNthPrimeLoading: Bool
    public var nthPrimeQuestion: String
    public var nthPrimeAnswer: String?
    public var nthPrimeError: String?
    public var favoritePrimes: [FavoritePrime]
    public var isLoadingFavorites: Bool
    public var favoritesError: String?
  }

  /// One row of the favourites list, keyed by the prime itself.
  public struct FavoritePrime: Encodable, Equatable, Sendable {
    public var prime: Int
  }

  /// Projects the state onto what the page shows; the page computes nothing.
  public static func viewState(_ state: State) -> ViewState {
    let isPrime = Primes.isPrime(state.count)
    let isFavorite = state.favoritePrimes.contains(state.count)
    var answer: String?
    var error: String?
    switch state.nthPrime {
    case .notAsked, .computing:
      break
    case .answered(let n, let prime):
      answer = "The \(ordinal(n)) prime is \(prime)."
    case .failed(_, let message):
      error = message
    }
    let isLoading = if case .computing = state.nthPrime { true } else { false }
    return ViewState(
      count: state.count,
      isPrime: isPrime,
      isFavorite: isFavorite,
      canAddFavorite: isPrime && !isFavorite && !state.isLoadingFavorites,
      canRemoveFavorite: isFavorite && !state.isLoadingFavorites,
      canAskNthPrime: (1...largestAskableN).contains(state.count),
      isNthPrimeLoading: isLoading,
      nthPrimeQuestion: "What is the \(ordinal(state.count)) prime?",
      nthPrimeAnswer: answer,
      nthPrimeError: error,
      favoritePrimes: state.favoritePrimes.map(FavoritePrime.init(prime:)),
      isLoadingFavorites: state.isLoadingFavorites,
      favoritesError: state.favoritesError
    )
  }

  /// `1st`, `2nd`, `3rd`, `4th`, `11th`, `21st`, `112th`, `-1st`.
  static func ordinal(_ n: Int) -> String {
    let lastTwo = n.magnitude % 100
    let suffix =
      switch (lastTwo % 10, lastTwo) {
      case (_, 11...13): "th"
      case (1, _): "st"
      case (2, _): "nd"
      case (3, _): "rd"
      default: "th"
      }
    return "\(n)\(suffix)"
  }
}
