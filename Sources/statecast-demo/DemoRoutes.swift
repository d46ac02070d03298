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
/// | `account` | signin.html | the visitor's name, signed into an `HttpOnly` cookie |
func demoRoutes(dataDirectory: URL, issuer: Account.Issuer) -> [Route] {
  let counter = Counter.Dependencies.live(dataDirectory: dataDirectory)
  let fastingTimer = FastingTimer.Dependencies.live()
  return [
    // Durable: a tab's counter is saved with its session and survives a restart.
    .perSession("counter", Counter.self, dependencies: counter, durability: .durable),
    // Every tab that joins `counter/team` sees and changes one counter, live; every
    // change is on disk before anyone sees it.
    // Restoring a revision (the debug panel) is for a tab's own counter only: in a room it
    // would take back everyone's clicks, so the room's access rule refuses it.
    .shared(
      "counter/:room", Counter.self, dependencies: counter,
      access: Access(canSend: { _, action in if case .restoreCount = action { false } else { true } }),
      durability: .durable),
    .perSession("fasting-timer", FastingTimer.self, dependencies: fastingTimer),
    // `.live()` is evaluated per store: each tab's service fails its first load, then
    // succeeds on retry.
    .perSession("recruitment", RecruitmentProcesses.self, dependencies: .live()),
    .perSession("annotation-filters", AnnotationFilters.self, dependencies: .live()),
    .perSession("music", Music.self, dependencies: .live()),
    // Demo 6: a collaborative list; each member sees their own draft, and who is there.
    .shared("board/:room", Board.self, dependencies: .live(), durability: .durable),
    // Sign-in: the store knows who joined (a guest, or the cookie's viewer).
    .perSession(
      "account", clientAction: Account.ClientAction.self, embed: { $0 }, view: Account.viewState,
      store: { join in Account.makeStore(viewer: join.viewer, issuer: issuer) }),
  ]
}
