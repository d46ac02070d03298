import Statecast

/// A small Codable feature for the storage tests: cards on a board.
struct Board: Codable, Equatable, Sendable {
  struct Card: Codable, Equatable, Sendable {
    var id: Int
    var text: String
    var done = false
    var tags: [String] = []
  }

  var title = "Board"
  var cards: [Card] = []
  var nextID = 1
}

enum BoardAction: Equatable, Sendable {
  case added(String)
  case toggled(Int)
  case removed(Int)
  case renamed(String)
  case tagged(Int, String)
  case movedToTop(Int)
  case viewed
}

let boardReducer = Reducer<Board, BoardAction> { state, action in
  switch action {
  case .added(let text):
    state.cards.append(.init(id: state.nextID, text: text))
    state.nextID += 1
  case .toggled(let id):
    if let index = state.cards.firstIndex(where: { $0.id == id }) { state.cards[index].done.toggle() }
  case .removed(let id):
    state.cards.removeAll { $0.id == id }
  case .renamed(let title):
    state.title = title
  case .tagged(let id, let tag):
    if let index = state.cards.firstIndex(where: { $0.id == id }) { state.cards[index].tags.append(tag) }
  case .movedToTop(let id):
    if let index = state.cards.firstIndex(where: { $0.id == id }) {
      state.cards.insert(state.cards.remove(at: index), at: 0)
    }
  case .viewed:
    break
  }
  return .none
}

extension BoardAction {
  /// A random action over the board's current cards, for property tests.
  static func random(on board: Board, using random: SeededRandom) -> BoardAction {
    let ids = board.cards.map(\.id)
    let id = ids.isEmpty ? 0 : ids[Int(random.next() % UInt64(ids.count))]
    switch random.next() % 8 {
    case 0, 1: return .added("card \(random.next() % 1000) \"quoted\" ü")
    case 2: return .toggled(id)
    case 3: return .removed(id)
    case 4: return .renamed("title \(random.next() % 100)")
    case 5: return .tagged(id, "t\(random.next() % 10)")
    case 6: return .movedToTop(id)
    default: return .viewed
    }
  }
}
