import Statecast
import StatecastExamples

/// Section "examples": the demos' own work, without the network.
///
/// Routing a deep link through the music rule set (the cost a rule router adds over a
/// `switch`), one action of each pure feature through its `Store` followed by its view
/// projection (what the server does per browser action before encoding), and the
/// nth-prime computation behind the counter's largest question. Medians of several runs.
func runExamplesBenchmarks() async throws {
  let runs = benchSize(7)
  var rows: [BenchRow] = []

  let router = Music.Rules.router(for: .sample)
  let links = [
    "/music", "/music/artist/42?song=7", "/music/artist/42", "/music/album/9", "/music/nowhere/1",
  ].map(DeepLink.init)
  rows.append(
    measure(name: "music rules: route a parsed link", operations: benchSize(1_000_000), runs: runs) { count in
      var matched = 0
      for index in 0..<count where router.evaluate(links[index % links.count]) != nil { matched += 1 }
      precondition(matched == count, "every link must reach a screen")
    })
  let paths = ["/music/artist/42?song=7", "/music/album/9", "/music/nowhere"]
  rows.append(
    measure(name: "music rules: parse and route a path", operations: benchSize(500_000), runs: runs) {
      count in
      for index in 0..<count { _ = router.evaluate(DeepLink(paths[index % paths.count])) }
    })

  let music = Music.Dependencies.live()
  rows.append(
    await measureAsync(name: "music: open + view", operations: benchSize(200_000), runs: runs) { count in
      let store = await Music.makeStore(dependencies: music, join: Join())
      for index in 0..<count {
        await store.send(.client(.open(path: paths[index % paths.count])))
        _ = await Music.viewState(store.state)
      }
      await store.close()
    })

  let drawing = AnnotationFilters.Dependencies.live()
  let kinds = drawing.groups.flatMap(\.kinds).map(\.id)
  rows.append(
    await measureAsync(name: "annotation filters: toggle + view", operations: benchSize(200_000), runs: runs)
    { count in
      let store = AnnotationFilters.makeStore(dependencies: drawing, join: Join())
      for index in 0..<count {
        await store.send(.client(.toggle(kind: kinds[index % kinds.count])))
        _ = await AnnotationFilters.viewState(store.state)
      }
      await store.close()
    })

  rows.append(
    await measureAsync(name: "fasting timer: reduce + view", operations: benchSize(500_000), runs: runs) {
      count in
      var state = FastingTimer.State(phase: .fasting(elapsedSeconds: 0), fastNumber: 1)
      for _ in 0..<count {
        _ = FastingTimer.reducer.reduce(into: &state, action: .timerTicked(fast: 1))
        _ = FastingTimer.viewState(state)
      }
      precondition(state.phase == .fasting(elapsedSeconds: count))
    })

  rows.append(
    await measureAsync(name: "nth prime: n = \(Counter.largestAskableN)", operations: 1, runs: runs) { _ in
      let prime = try? await Primes.nth(Counter.largestAskableN)
      precondition(prime == 1_299_709)
    })

  printTable("examples", rows)
}

/// Times `body` doing `operations` operations, `runs` times.
private func measure(name: String, operations: Int, runs: Int, body: (Int) -> Void) -> BenchRow {
  var elapsed: [Double] = []
  for _ in 0..<runs {
    let start = nowNanoseconds()
    body(operations)
    elapsed.append(Double(nowNanoseconds() - start))
  }
  return row(name: name, operations: operations, runs: runs, elapsed: elapsed)
}

/// Times async `body` doing `operations` operations, `runs` times.
private func measureAsync(name: String, operations: Int, runs: Int, body: (Int) async -> Void) async
  -> BenchRow
{
  var elapsed: [Double] = []
  for _ in 0..<runs {
    let start = nowNanoseconds()
    await body(operations)
    elapsed.append(Double(nowNanoseconds() - start))
  }
  return row(name: name, operations: operations, runs: runs, elapsed: elapsed)
}

private func row(name: String, operations: Int, runs: Int, elapsed: [Double]) -> BenchRow {
  let rates = elapsed.map { Double(operations) / ($0 / 1e9) }
  return BenchRow(
    name: name,
    columns: [
      ("operations", formatRate(Double(operations))),
      ("runs", "\(runs)"),
      ("median ops/s", formatRate(median(rates))),
      ("median per op", formatDuration(nanoseconds: median(elapsed) / Double(operations))),
    ]
  )
}
