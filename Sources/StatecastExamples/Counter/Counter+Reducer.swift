public import Statecast

extension Counter {
  /// The counter's logic: pure, with effects returned as values.
  ///
  /// ```swift
  /// let store = Store(initialState: Counter.State(), reducer: Counter.reducer(dependencies: .live(dataDirectory: dir)))
  /// ```
  public static func reducer(dependencies: Dependencies) -> Reducer<State, Action> {
    Reducer { state, action in
      switch action {
      case .client(.increment):
        state.count += 1
        return .none

      case .client(.decrement):
        state.count -= 1
        return .none

      case .client(.restoreCount(let count)):
        state.count = count
        return .none

      case .client(.askNthPrime):
        let n = state.count
        guard (1...largestAskableN).contains(n) else { return .none }
        state.nthPrime = .computing(n: n)
        return .run { send in
          let prime = try await dependencies.nthPrime(n)
          await send(.nthPrimeResponse(n: n, prime: prime))
        } catch: { error, send in
          await send(.nthPrimeFailed(n: n, message: describe(error)))
        }
        .cancellable(id: CancelID.nthPrime, cancelInFlight: true)

      case .client(.cancelNthPrime):
        guard case .computing = state.nthPrime else { return .none }
        state.nthPrime = .notAsked
        return .cancel(id: CancelID.nthPrime)

      case .nthPrimeResponse(let n, let prime):
        guard state.nthPrime == .computing(n: n) else { return .none }
        state.nthPrime = .answered(n: n, prime: prime)
        return .none

      case .nthPrimeFailed(let n, let message):
        guard state.nthPrime == .computing(n: n) else { return .none }
        state.nthPrime = .failed(n: n, message: message)
        return .none

      case .client(.addFavoritePrime):
        guard !state.isLoadingFavorites, Primes.isPrime(state.count),
          !state.favoritePrimes.contains(state.count)
        else { return .none }
        state.favoritePrimes.append(state.count)
        state.favoritesError = nil
        return save(state.favoritePrimes, dependencies: dependencies)

      case .client(.removeFavoritePrime(let prime)):
        guard !state.isLoadingFavorites, let index = state.favoritePrimes.firstIndex(of: prime) else {
          return .none
        }
        state.favoritePrimes.remove(at: index)
        state.favoritesError = nil
        return save(state.favoritePrimes, dependencies: dependencies)

      case .favoritePrimesLoaded(let primes):
        state.isLoadingFavorites = false
        state.favoritePrimes = primes
        return .none

      case .favoritePrimesLoadFailed(let message):
        state.isLoadingFavorites = false
        state.favoritesError = message
        return .none

      case .favoritePrimesSaveFailed(let message):
        state.favoritesError = message
        return .none
      }
    }
  }

  /// The event sources of a counter store: one that reads the saved favourites once,
  /// when the store starts.
  public static func eventSources(dependencies: Dependencies) -> [EventSource<Action>] {
    [
      EventSource { send in
        do {
          await send(.favoritePrimesLoaded(try await dependencies.loadFavoritePrimes()))
        } catch is CancellationError {
          return
        } catch {
          await send(.favoritePrimesLoadFailed(message: describe(error)))
        }
      }
    ]
  }

  /// Saves the whole list; a later save cancels one still in flight, so the newest
  /// list is the one that ends up saved.
  private static func save(_ primes: [Int], dependencies: Dependencies) -> Effect<Action> {
    .run { _ in
      try await dependencies.saveFavoritePrimes(primes)
    } catch: { error, send in
      await send(.favoritePrimesSaveFailed(message: describe(error)))
    }
    .cancellable(id: CancelID.saveFavorites, cancelInFlight: true)
  }
}
