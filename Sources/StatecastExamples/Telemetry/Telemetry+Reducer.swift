public import Statecast

extension Telemetry {
  /// The telemetry's logic: readings while running, marks, and toasts as events.
  public static func reducer() -> Reducer<State, Action> {
    Reducer { state, action in
      switch action {
      case .ticked:
        guard state.running else { return .none }
        state.tick += 1
        let value = reading(at: state.tick)
        state.samples.append(value)
        if state.samples.count > sampleCount { state.samples.removeFirst(state.samples.count - sampleCount) }
        state.readings.append(Reading(id: state.tick, value: value))
        return .none

      case .client(_, .pauseTapped):
        state.running = false
        return .none

      case .client(_, .resumeTapped):
        state.running = true
        return .none

      case .client(_, .markTapped):
        guard let value = state.samples.last else { return .none }
        state.marks.append(Mark(id: state.nextMark, tick: state.tick, value: value))
        state.nextMark += 1
        if state.marks.count > maxMarks { state.marks.removeFirst(state.marks.count - maxMarks) }
        return .none

      case .client(_, .removeMark(let id)):
        state.marks.removeAll { $0.id == id }
        return .none

      case .client(let viewer, .pingTapped(let everyone)):
        let text =
          everyone
          ? "\(viewer.name) pinged everyone at reading \(state.tick)" : "Pong at reading \(state.tick)"
        return .run { send in
          send.event("toast", Toast(text: text), to: everyone ? nil : viewer)
        }
      }
    }
  }
}
