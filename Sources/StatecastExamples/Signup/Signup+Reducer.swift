public import Statecast

extension Signup {
  public static func reducer(dependencies: Dependencies) -> Reducer<State, Action> {
    Reducer { state, action in
      switch action {
      case .client(.nameChanged(let text)):
        state.name = text
        state.serverErrors.clear("name")
        guard errors(of: state)["name"].isEmpty else {
          state.nameCheck = .idle
          return .cancel(id: CancelID.nameCheck)
        }
        state.nameCheck = .checking(text)
        // Typing again within the pause cancels this check: only a name left alone is looked up.
        return .run { send in
          try await dependencies.clock.sleep(for: dependencies.checkDelay)
          await send(.nameChecked(name: text, taken: await dependencies.isTaken(text)))
        }
        .cancellable(id: CancelID.nameCheck, cancelInFlight: true)

      case .nameChecked(let name, let taken):
        guard state.nameCheck == .checking(name) else { return .none }
        state.nameCheck = .checked(name)
        if taken { state.serverErrors.add("\(name) is taken; try another name", to: "name") }
        guard state.submitPending else { return .none }
        state.submitPending = false
        return submit(&state, dependencies: dependencies)

      case .client(.emailChanged(let text)):
        state.email = text
        return .none

      case .client(.passwordChanged(let text)):
        state.password = text
        return .none

      case .client(.submit):
        guard state.phase == .editing else { return .none }
        if case .checking = state.nameCheck {
          state.submitPending = true
          return .none
        }
        return submit(&state, dependencies: dependencies)

      case .accountCreated:
        guard state.phase == .creating else { return .none }
        state.phase = .signedUp
        return .none

      case .client(.startOver):
        state = State()
        return .cancel(id: CancelID.nameCheck)
      }
    }
  }

  /// Creates the account when every field is valid; otherwise nothing changes and the
  /// page shows the errors.
  private static func submit(_ state: inout State, dependencies: Dependencies) -> Effect<Action> {
    guard errors(of: state).isEmpty else { return .none }
    state.phase = .creating
    return .run { send in
      try await dependencies.clock.sleep(for: dependencies.checkDelay)
      await send(.accountCreated)
    }
  }

  public static func makeStore(dependencies: Dependencies, join: Join) -> Store<State, Action> {
    Store(initialState: State(), reducer: reducer(dependencies: dependencies))
  }
}
