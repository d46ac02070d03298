import Statecast

/// A small feature used across the tests.
struct Counter: Equatable, Sendable {
  var count = 0
  var history: [String] = []
}

enum CounterAction: Equatable, Sendable {
  case increment
  case decrement
  case add(Int)
  case note(String)
}

let counterReducer = Reducer<Counter, CounterAction> { state, action in
  switch action {
  case .increment: state.count += 1
  case .decrement: state.count -= 1
  case .add(let amount): state.count += amount
  case .note(let text): state.history.append(text)
  }
  return .none
}
