import Foundation
import StatecastExamples
import StatecastServer

/// The demo's topics: one per example feature, each a store per browser tab, and the
/// counter once more as a store shared by everyone in a room.
///
/// | topic | page | source document |
/// |---|---|---|
/// | `counter` | counter.html | Composable effects (Point-Free) |
/// | `counter/:room` | counter.html?room=NAME | the same, one store shared by a room |
/// | `fasting-timer` | fasting-timer.html | Functional core, imperative shell |
/// | `recruitment` | recruitment.html | Separating logic from effects (Jobandtalent) |
/// | `annotation-filters` | annotation-filters.html | Flux at PlanGrid |
/// | `music` | music.html (any `/music/...` path) | Rule-based logic (Sundell) |
func demoRoutes(dataDirectory: URL) -> [Route] {
  let counter = Counter.Dependencies.live(dataDirectory: dataDirectory)
  let fastingTimer = FastingTimer.Dependencies.live()
  return [
    .perSession(
      "counter",
      clientAction: Counter.ClientAction.self,
      embed: Counter.Action.client,
      view: Counter.viewState,
      store: { _ in Counter.makeStore(dependencies: counter) }
    ),
    // The same feature as a shared store: every tab that joins `counter/team` sees and
    // changes one counter, live.
    .shared(
      "counter/:room",
      clientAction: Counter.ClientAction.self,
      embed: Counter.Action.client,
      view: Counter.viewState,
      store: { _ in Counter.makeStore(dependencies: counter) }
    ),
    .perSession(
      "fasting-timer",
      clientAction: FastingTimer.ClientAction.self,
      embed: FastingTimer.Action.client,
      view: FastingTimer.viewState,
      store: { _ in FastingTimer.makeStore(dependencies: fastingTimer) }
    ),
    .perSession(
      "recruitment",
      clientAction: RecruitmentProcesses.ClientAction.self,
      embed: RecruitmentProcesses.Action.client,
      view: RecruitmentProcesses.viewState,
      // A service per store: each tab sees the first load fail, then succeed on retry.
      store: { _ in RecruitmentProcesses.makeStore(dependencies: .live()) }
    ),
    .perSession(
      "annotation-filters",
      clientAction: AnnotationFilters.ClientAction.self,
      embed: AnnotationFilters.Action.client,
      view: AnnotationFilters.viewState,
      store: { _ in AnnotationFilters.makeStore(dependencies: .live()) }
    ),
    .perSession(
      "music",
      clientAction: Music.ClientAction.self,
      embed: Music.Action.client,
      view: Music.viewState,
      store: { _ in Music.makeStore(dependencies: .live()) }
    ),
  ]
}
