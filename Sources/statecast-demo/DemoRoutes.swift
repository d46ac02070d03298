import Foundation
import Statecast
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
/// | `signup` | signup.html | forms validated in the reducer |
/// | `uploads` | uploads.html | files uploaded to the tab's store |
/// | `account` | signin.html | the visitor's name, signed into an `HttpOnly` cookie |
/// | `rows` | rows.html | a windowed list of 100,000 rows |
/// | `live`, `live/:room` | live.html | a chart drawn by a hook, events pushed to hooks |
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
    // A join whose params name a link (`path`, `query`) opens its screen first, so the
    // page is rendered at the screen its address names, readable before any script.
    .perSession("music", Music.self, dependencies: .live()),
    // Demo 6: a collaborative list; each member sees their own draft, and who is there.
    .shared("board/:room", Board.self, dependencies: .live(), durability: .durable),
    // Forms validated as people type, with a name check only the server can make.
    .perSession("signup", Signup.self, dependencies: .live()),
    // Uploads with progress, resumed after a dropped connection; files live with the tab.
    .perSession("uploads", FileUploads.self, dependencies: ()),
    // A table of 100,000 rows of which a page holds only the window in view.
    .perSession("rows", Rows.self, dependencies: ()),
    // A chart drawn by the page's hook; toasts pushed to one tab or to a whole room.
    .perSession("live", Telemetry.self, dependencies: .init()),
    .shared("live/:room", Telemetry.self, dependencies: .init()),
    // Sign-in: the store starts as whoever joined (a guest, or the cookie's viewer). Not
    // durable: after a restart the tab's socket says who it is, which a saved state
    // (and its one-time ticket) could only contradict.
    .perSession("account", Account.self, dependencies: issuer),
  ]
}
