import Foundation
import Statecast
import StatecastExamples
import StatecastTesting
import Testing

@Suite("Counter")
struct CounterTests {
  /// Outcomes of calls to `nthPrime`: "n=3 answered 5", "n=3 cancelled".
  let calls = Recorder<String>()
  let saves = Recorder<[Int]>()
  let clock = CountingClock()

  /// Dependencies whose nth prime takes one second of the test clock.
  func dependencies(
    load: @escaping @Sendable () async throws -> [Int] = { [] },
    save: (@Sendable ([Int]) async throws -> Void)? = nil
  ) -> Counter.Dependencies {
    Counter.Dependencies(
      nthPrime: { [clock, calls] n in
        do {
          try await clock.sleep(for: .seconds(1))
          let prime = try await Primes.nth(n)
          calls.record("n=\(n) answered \(prime)")
          return prime
        } catch {
          calls.record("n=\(n) \(error is CancellationError ? "cancelled" : "failed")")
          throw error
        }
      },
      loadFavoritePrimes: load,
      saveFavoritePrimes: save ?? { [saves] primes in saves.record(primes) }
    )
  }

  func makeStore(_ state: Counter.State, dependencies: Counter.Dependencies? = nil)
    -> TestStore<Counter.State, Counter.Action>
  {
    TestStore(
      initialState: state, reducer: Counter.reducer(dependencies: dependencies ?? self.dependencies()))
  }

  @Test func incrementAndDecrement() async {
    let store = makeStore(Counter.State(isLoadingFavorites: false))
    await store.send(.client(.increment)) { $0.count = 1 }
    await store.send(.client(.increment)) { $0.count = 2 }
    await store.send(.client(.decrement)) { $0.count = 1 }
    await store.send(.client(.decrement)) { $0.count = 0 }
    await store.send(.client(.decrement)) { $0.count = -1 }
    await store.finish()
  }

  @Test func restoringARevisionSetsTheCountThroughTheReducer() async {
    let store = makeStore(Counter.State(count: 5, isLoadingFavorites: false))
    await store.send(.client(.restoreCount(count: 2))) { $0.count = 2 }
    // The same count again changes nothing.
    await store.send(.client(.restoreCount(count: 2)))
    await store.finish()
  }

  @Test func asksForTheNthPrime() async {
    let store = makeStore(Counter.State(count: 5, isLoadingFavorites: false))
    await store.send(.client(.askNthPrime)) { $0.nthPrime = .computing(n: 5) }
    await clock.advance(by: .seconds(1), afterSleeps: 1)
    await store.receive(.nthPrimeResponse(n: 5, prime: 11)) { $0.nthPrime = .answered(n: 5, prime: 11) }
    await store.finish()
    #expect(calls.values == ["n=5 answered 11"])
  }

  @Test func aSecondRequestCancelsTheFirst() async {
    let store = makeStore(Counter.State(count: 3, isLoadingFavorites: false))
    await store.send(.client(.askNthPrime)) { $0.nthPrime = .computing(n: 3) }
    await clock.waitForSleeps(1)
    await store.send(.client(.increment)) { $0.count = 4 }
    await store.send(.client(.askNthPrime)) { $0.nthPrime = .computing(n: 4) }
    await clock.advance(by: .seconds(1), afterSleeps: 2)
    await store.receive(.nthPrimeResponse(n: 4, prime: 7)) { $0.nthPrime = .answered(n: 4, prime: 7) }
    await store.finish()
    #expect(calls.values == ["n=3 cancelled", "n=4 answered 7"])
  }

  @Test func theCancelButtonCancelsTheRequest() async {
    let store = makeStore(Counter.State(count: 6, isLoadingFavorites: false))
    await store.send(.client(.askNthPrime)) { $0.nthPrime = .computing(n: 6) }
    await clock.waitForSleeps(1)
    await store.send(.client(.cancelNthPrime)) { $0.nthPrime = .notAsked }
    await store.finish()
    #expect(calls.values == ["n=6 cancelled"])
    // Cancelling when nothing is being computed changes nothing.
    await store.send(.client(.cancelNthPrime))
  }

  @Test func aFailedComputationIsShown() async {
    let store = makeStore(
      Counter.State(count: 2, isLoadingFavorites: false),
      dependencies: Counter.Dependencies(
        nthPrime: { _ in throw TestFailure("The prime service is down.") },
        loadFavoritePrimes: { [] },
        saveFavoritePrimes: { _ in }
      )
    )
    await store.send(.client(.askNthPrime)) { $0.nthPrime = .computing(n: 2) }
    await store.receive(.nthPrimeFailed(n: 2, message: "The prime service is down.")) {
      $0.nthPrime = .failed(n: 2, message: "The prime service is down.")
    }
    await store.finish()
  }

  @Test func onlyPositiveCountsWithinTheLimitAreAsked() async {
    let store = makeStore(Counter.State(count: 0, isLoadingFavorites: false))
    await store.send(.client(.askNthPrime))
    await store.send(.client(.decrement)) { $0.count = -1 }
    await store.send(.client(.askNthPrime))
    let far = makeStore(Counter.State(count: Counter.largestAskableN + 1, isLoadingFavorites: false))
    await far.send(.client(.askNthPrime))
    await store.finish()
    await far.finish()
    #expect(calls.values.isEmpty)
  }

  @Test func aLateAnswerForAnotherQuestionIsIgnored() async {
    let store = makeStore(Counter.State(count: 4, nthPrime: .computing(n: 4), isLoadingFavorites: false))
    await store.send(.nthPrimeResponse(n: 3, prime: 5))
    await store.send(.nthPrimeFailed(n: 3, message: "late"))
    await store.send(.client(.cancelNthPrime)) { $0.nthPrime = .notAsked }
    await store.send(.nthPrimeResponse(n: 4, prime: 7))
    await store.finish()
  }

  @Test func favouritesAreLoadedWhenTheStoreStarts() async {
    let store = TestStore(
      initialState: Counter.State(count: 5),
      reducer: Counter.reducer(dependencies: dependencies(load: { [2, 3] })),
      eventSources: Counter.eventSources(dependencies: dependencies(load: { [2, 3] }))
    )
    await store.receive(.favoritePrimesLoaded([2, 3])) {
      $0.isLoadingFavorites = false
      $0.favoritePrimes = [2, 3]
    }
    await store.send(.client(.addFavoritePrime)) { $0.favoritePrimes = [2, 3, 5] }
    await store.finish()
    #expect(saves.values == [[2, 3, 5]])
  }

  @Test func editingWaitsForTheSavedFavourites() async {
    let store = makeStore(Counter.State(count: 5, favoritePrimes: []))
    await store.send(.client(.addFavoritePrime))
    await store.send(.client(.removeFavoritePrime(prime: 5)))
    await store.send(.favoritePrimesLoaded([5])) {
      $0.isLoadingFavorites = false
      $0.favoritePrimes = [5]
    }
    await store.finish()
    #expect(saves.values.isEmpty)
  }

  @Test func aFailedLoadIsShownAndEditingContinues() async {
    let deps = dependencies(load: { throw TestFailure("The favourites file is unreadable.") })
    let store = TestStore(
      initialState: Counter.State(count: 7),
      reducer: Counter.reducer(dependencies: deps),
      eventSources: Counter.eventSources(dependencies: deps)
    )
    await store.receive(.favoritePrimesLoadFailed(message: "The favourites file is unreadable.")) {
      $0.isLoadingFavorites = false
      $0.favoritesError = "The favourites file is unreadable."
    }
    await store.send(.client(.addFavoritePrime)) {
      $0.favoritePrimes = [7]
      $0.favoritesError = nil
    }
    await store.finish()
    #expect(saves.values == [[7]])
  }

  @Test func addAndRemoveFavouritesSaveTheWholeList() async {
    let store = makeStore(Counter.State(count: 5, favoritePrimes: [2], isLoadingFavorites: false))
    await store.send(.client(.addFavoritePrime)) { $0.favoritePrimes = [2, 5] }.finish()
    // Not prime, already a favourite, or not a favourite: nothing to do.
    await store.send(.client(.addFavoritePrime))
    await store.send(.client(.decrement)) { $0.count = 4 }
    await store.send(.client(.addFavoritePrime))
    await store.send(.client(.removeFavoritePrime(prime: 3)))
    await store.send(.client(.removeFavoritePrime(prime: 2))) { $0.favoritePrimes = [5] }.finish()
    await store.finish()
    #expect(saves.values == [[2, 5], [5]])
  }

  @Test func aFailedSaveIsShownUntilTheNextEdit() async {
    let store = makeStore(
      Counter.State(count: 3, isLoadingFavorites: false),
      dependencies: dependencies(save: { _ in throw TestFailure("The disk is full.") })
    )
    await store.send(.client(.addFavoritePrime)) { $0.favoritePrimes = [3] }
    await store.receive(.favoritePrimesSaveFailed(message: "The disk is full.")) {
      $0.favoritesError = "The disk is full."
    }
    await store.send(.client(.removeFavoritePrime(prime: 3))) {
      $0.favoritePrimes = []
      $0.favoritesError = nil
    }
    await store.receive(.favoritePrimesSaveFailed(message: "The disk is full.")) {
      $0.favoritesError = "The disk is full."
    }
    await store.finish()
  }

  @Test func viewState() throws {
    let state = Counter.State(
      count: 5, nthPrime: .answered(n: 5, prime: 11), favoritePrimes: [2, 5], isLoadingFavorites: false)
    let view = Counter.viewState(state)
    #expect(view.count == 5)
    #expect(view.isPrime && view.isFavorite && !view.canAddFavorite && view.canRemoveFavorite)
    #expect(view.canAskNthPrime && !view.isNthPrimeLoading)
    #expect(view.nthPrimeQuestion == "What is the 5th prime?")
    #expect(view.nthPrimeAnswer == "The 5th prime is 11.")
    #expect(view.favoritePrimes.map(\.prime) == [2, 5])

    var computing = Counter.viewState(Counter.State(count: 0, nthPrime: .computing(n: 3)))
    #expect(computing.isNthPrimeLoading && !computing.canAskNthPrime && computing.nthPrimeAnswer == nil)
    #expect(!computing.canAddFavorite && computing.isLoadingFavorites)
    computing = Counter.viewState(Counter.State(count: 4, nthPrime: .failed(n: 4, message: "down")))
    #expect(computing.nthPrimeError == "down" && !computing.isPrime)

    let json = try JSONSerialization.jsonObject(with: JSONEncoder().encode(view)) as? [String: Any]
    #expect(json?["count"] as? Int == 5)
    #expect((json?["favoritePrimes"] as? [[String: Int]])?.first?["prime"] == 2)
  }

  @Test func ordinals() {
    let cases = [
      1: "1st", 2: "2nd", 3: "3rd", 4: "4th", 11: "11th", 12: "12th", 13: "13th", 21: "21st", 22: "22nd",
      101: "101st", 111: "111th", 0: "0th", -1: "-1st",
    ]
    for (n, text) in cases {
      #expect(Counter.viewState(Counter.State(count: n)).nthPrimeQuestion == "What is the \(text) prime?")
    }
  }

  @Test func clientActionsDecodeFromTheWireForm() throws {
    let decoder = JSONDecoder()
    func decode(_ json: String) throws -> Counter.ClientAction {
      try decoder.decode(Counter.ClientAction.self, from: Data(json.utf8))
    }
    #expect(try decode(#"{"increment":{}}"#) == .increment)
    #expect(try decode(#"{"decrement":{}}"#) == .decrement)
    #expect(try decode(#"{"askNthPrime":{}}"#) == .askNthPrime)
    #expect(try decode(#"{"cancelNthPrime":{}}"#) == .cancelNthPrime)
    #expect(try decode(#"{"addFavoritePrime":{}}"#) == .addFavoritePrime)
    #expect(try decode(#"{"removeFavoritePrime":{"prime":7}}"#) == .removeFavoritePrime(prime: 7))
    #expect(throws: DecodingError.self) { try decode(#"{"nthPrimeResponse":{"n":1,"prime":2}}"#) }
  }

  @Test func theStoreLoadsFavouritesFromItsEventSource() async throws {
    let store = try await Counter.makeStore(dependencies: dependencies(load: { [3, 7] }), join: Join())
    let loaded = await firstState(of: store) { !$0.isLoadingFavorites }
    #expect(loaded?.favoritePrimes == [3, 7])
    await store.close()
  }
}

@Suite("Primes")
struct PrimesTests {
  @Test func nthPrimes() async throws {
    var primes: [Int] = []
    for n in 1...15 { primes.append(try await Primes.nth(n)) }
    #expect(primes == [2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47])
    #expect(try await Primes.nth(1000) == 7919)
    #expect(try await Primes.nth(Counter.largestAskableN) == 1_299_709)
    await #expect(throws: PrimesError.notPositive(0)) { try await Primes.nth(0) }
  }

  @Test func isPrime() {
    let small = (-3...50).filter(Primes.isPrime)
    #expect(small == [2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47])
    #expect(Primes.isPrime(1_299_709))
    #expect(!Primes.isPrime(1_299_709 * 3))
    #expect(!Primes.isPrime(25) && !Primes.isPrime(49) && !Primes.isPrime(121))
  }

  @Test func theComputationStopsWhenCancelled() async {
    let task = Task { () async throws -> Int in
      withUnsafeCurrentTask { $0?.cancel() }
      return try await Primes.nth(Counter.largestAskableN)
    }
    await #expect(throws: CancellationError.self) { try await task.value }
  }
}

@Suite("FavoritePrimesFile")
struct FavoritePrimesFileTests {
  let directory = FileManager.default.temporaryDirectory
    .appendingPathComponent("statecast-favorites-\(UUID().uuidString)")

  @Test func savesAndLoadsInADirectoryItCreates() async throws {
    defer { try? FileManager.default.removeItem(at: directory) }
    let live = Counter.Dependencies.live(dataDirectory: directory, clock: ImmediateClock())
    #expect(try await live.loadFavoritePrimes() == [])
    try await live.saveFavoritePrimes([2, 3, 5])
    #expect(try await live.loadFavoritePrimes() == [2, 3, 5])
    let reopened = Counter.Dependencies.live(dataDirectory: directory, clock: ImmediateClock())
    #expect(try await reopened.loadFavoritePrimes() == [2, 3, 5])
    #expect(try await reopened.nthPrime(6) == 13)
  }

  @Test func anUnreadableFileIsAnError() async throws {
    defer { try? FileManager.default.removeItem(at: directory) }
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let url = directory.appendingPathComponent("favorite-primes.json")
    try Data("not json".utf8).write(to: url)
    let file = FavoritePrimesFile(url: url)
    await #expect(throws: FavoritePrimesFileError.unreadable(path: url.path)) { try await file.load() }
  }
}
