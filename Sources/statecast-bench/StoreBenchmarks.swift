import Statecast

/// Section "store": how many actions per second go through a `Store`.
///
/// Three shapes: the fast path (a reducer with no effects and no observers, one
/// sender), one middleware per action (a task per action, run in the store's task
/// group), and 1,000 tasks sending at once (contention on the store's executor).
/// Each case is run several times and the median is reported.
func runStoreBenchmarks() async throws {
  let runs = benchSize(7)
  var rows: [BenchRow] = []

  rows.append(
    await measureStore(name: "no effects, 1 sender", actions: benchSize(2_000_000), runs: runs) {
      store, count in
      for _ in 0..<count { await store.send(.increment) }
    }
  )

  rows.append(
    await measureStore(
      name: "no effects, 1 observer", actions: benchSize(2_000_000), runs: runs, observed: true
    ) {
      store, count in
      for _ in 0..<count { await store.send(.increment) }
    }
  )

  rows.append(
    await measureStore(
      name: "1 middleware, 1 sender", actions: benchSize(200_000), runs: runs,
      middlewares: [Middleware { _, _ in nil }]
    ) { store, count in
      var tasks: [StoreTask] = []
      tasks.reserveCapacity(count)
      for _ in 0..<count { tasks.append(await store.send(.increment)) }
      for task in tasks { await task.finish() }
    }
  )

  rows.append(
    await measureStore(name: "no effects, 1,000 senders", actions: benchSize(2_000_000), runs: runs) {
      store, count in
      let senders = 1_000
      await withDiscardingTaskGroup { group in
        for _ in 0..<senders {
          group.addTask {
            for _ in 0..<(count / senders) { await store.send(.increment) }
          }
        }
      }
    }
  )

  printTable("store", rows)
}

private struct BenchCounter: Sendable {
  var count = 0
}

private enum BenchAction: Sendable {
  case increment
}

private let benchReducer = Reducer<BenchCounter, BenchAction> { state, _ in
  state.count &+= 1
  return .none
}

/// Times `body` sending `actions` actions to a fresh store, `runs` times, and checks
/// that every action was reduced.
private func measureStore(
  name: String,
  actions: Int,
  runs: Int,
  observed: Bool = false,
  middlewares: [Middleware<BenchCounter, BenchAction>] = [],
  body: (Store<BenchCounter, BenchAction>, Int) async -> Void
) async -> BenchRow {
  var rates: [Double] = []
  var perAction: [Double] = []
  for _ in 0..<runs {
    let store = Store(initialState: BenchCounter(), reducer: benchReducer, middlewares: middlewares)
    let observation = observed ? await store.observe { _ in } : nil
    let start = nowNanoseconds()
    await body(store, actions)
    let elapsed = Double(nowNanoseconds() - start)
    let reduced = await store.state.count
    precondition(reduced == actions, "\(name): \(reduced) of \(actions) actions reduced")
    observation?.cancel()
    await store.close()
    rates.append(Double(actions) / (elapsed / 1e9))
    perAction.append(elapsed / Double(actions))
  }
  return BenchRow(
    name: name,
    columns: [
      ("actions", formatRate(Double(actions))),
      ("runs", "\(runs)"),
      ("median actions/s", formatRate(median(rates))),
      ("p10 actions/s", formatRate(percentile(rates, 0.1))),
      ("median per action", formatDuration(nanoseconds: median(perAction))),
    ]
  )
}
