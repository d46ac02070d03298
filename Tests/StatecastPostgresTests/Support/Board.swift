import Statecast

/// A small Codable feature: cards on a board.
struct Board: Codable, Equatable, Sendable {
  var cards: [String] = []
}

enum BoardAction: Equatable, Sendable {
  case added(String)
}

let boardReducer = Reducer<Board, BoardAction> { state, action in
  switch action {
  case .added(let text): state.cards.append(text)
  }
  return .none
}
