import Foundation
import Statecast

/// A small feature for the server's tests: a counter with a secret the view must never
/// show, and a ticking effect whose start and cancellation a `Probe` records.
enum Ticker {
  struct State: Codable, Sendable {
    var count = 0
    var ticks = 0
    var secret = "server only"
  }

  enum Action: Sendable {
    case client(ClientAction)
    case tick
  }

  enum ClientAction: Codable, Sendable {
    case increment
    case add(amount: Int)
    case startTicking
  }

  struct ViewState: Encodable, Sendable {
    var count: Int
    var ticks: Int
  }

  static func viewState(_ state: State) -> ViewState {
    ViewState(count: state.count, ticks: state.ticks)
  }

  static func makeStore(
    probe: Probe, state: State = State(), commit: (@Sendable (Commit<State>) async throws -> Void)? = nil
  ) -> Store<State, Action> {
    Store(
      initialState: state,
      reducer: Reducer { state, action in
        switch action {
        case .client(.increment):
          state.count += 1
          return .none
        case .client(.add(let amount)):
          state.count += amount
          return .none
        case .client(.startTicking):
          return .run { send in
            await probe.record(.started)
            await withTaskCancellationHandler {
              while !Task.isCancelled {
                await send(.tick)
                try? await Task.sleep(for: .milliseconds(20))
              }
            } onCancel: {
              Task { await probe.record(.cancelled) }
            }
          }
        case .tick:
          state.ticks += 1
          return .none
        }
      },
      commit: commit
    )
  }
}

/// Records what an effect went through, and lets a test await each event.
actor Probe {
  enum Event: Sendable, Equatable {
    case started
    case cancelled
  }

  private var events: [Event] = []
  private var waiters: [(Event, CheckedContinuation<Void, Never>)] = []

  func record(_ event: Event) {
    events.append(event)
    for (index, waiter) in waiters.enumerated().reversed() where waiter.0 == event {
      waiter.1.resume()
      waiters.remove(at: index)
    }
  }

  /// Returns once `event` has been recorded (at once if it already was).
  func wait(for event: Event) async {
    if events.contains(event) { return }
    await withCheckedContinuation { waiters.append((event, $0)) }
  }

  var recorded: [Event] { events }
}

extension Ticker: DurableFeature {
  typealias Dependencies = Probe

  static var initialState: State { State() }

  static func embed(_ action: ClientAction) -> Action { .client(action) }

  static func makeStore(
    dependencies probe: Probe, join: Join, state: State,
    commit: (@Sendable (Commit<State>) async throws -> Void)?
  ) -> Store<State, Action> {
    makeStore(probe: probe, state: state, commit: commit)
  }
}
