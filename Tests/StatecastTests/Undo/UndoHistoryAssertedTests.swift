import Statecast
import StatecastTesting
import Testing

/// An app's test of an undoable feature, with the ordinary (not `@testable`) import an
/// app has: every state change asserted, the history's included, through the public API.
@Suite("Undo history asserted by an app")
struct UndoHistoryAssertedTests {
  struct State: Equatable, Sendable {
    var votes: [String: String] = [:]
    var history = UndoHistory<Step>()
  }
  enum Step: Equatable, Codable, Sendable { case setVote(String?) }
  enum Action: Equatable, Sendable {
    case vote(Viewer, String)
    case undo(Viewer)
    case apply(Viewer, Step)
  }

  static let ada = Viewer(id: "ada", name: "Ada")
  static let ben = Viewer(id: "ben", name: "Ben")

  static func undoEntry(_ vote: String?, of viewer: Viewer) -> Undoable<Step> {
    Undoable(.setVote(vote), touching: ["votes/\(viewer.id)"], label: "your vote")
  }

  static let reducer = Reducer<State, Action>.undoable(
    Reducer { state, action in
      switch action {
      case .vote(let viewer, let option), .apply(let viewer, .setVote(let option?)):
        state.votes[viewer.id] = option
      case .apply(let viewer, .setVote(nil)): state.votes[viewer.id] = nil
      case .undo: break
      }
      return .none
    },
    history: \.history,
    command: { action in
      guard case .undo(let viewer) = action else { return nil }
      return .undo(viewer)
    },
    change: { action, before, after in
      switch action {
      case .vote(let viewer, _), .apply(let viewer, _):
        let old = before.votes[viewer.id]
        return old == after.votes[viewer.id] ? nil : (viewer, undoEntry(old, of: viewer))
      case .undo: return nil
      }
    },
    action: { step, viewer in .apply(viewer, step) }
  )

  @Test func oneMembersUndoIsAssertedWholeAndLeavesTheOthersVote() async {
    let store = TestStore(initialState: State(), reducer: Self.reducer)
    await store.send(.vote(Self.ada, "Pizza")) {
      $0.votes["ada"] = "Pizza"
      $0.history.record(Self.undoEntry(nil, of: Self.ada), by: Self.ada)
    }
    await store.send(.vote(Self.ben, "Sushi")) {
      $0.votes["ben"] = "Sushi"
      $0.history.record(Self.undoEntry(nil, of: Self.ben), by: Self.ben)
    }
    await store.send(.undo(Self.ada)) {
      $0.votes["ada"] = nil
      $0.history.takeUndo(for: "ada")
      $0.history.recordUndone(Self.undoEntry("Pizza", of: Self.ada), by: Self.ada)
    }
    #expect(store.state.votes == ["ben": "Sushi"])
    #expect(store.state.history.canRedo("ada") && store.state.history.canUndo("ben"))
  }
}
