import Foundation
public import Statecast

/// A live reading drawn as a chart by the page's own hook, with marks, a feed of the
/// latest readings and toasts pushed from the server: the hooks and events example.
///
/// What it shows: a view binding cannot draw a chart, so the page registers a hook
/// (`statecast.hook("chart", …)`) that owns a `<canvas>` and is told of every new list
/// of samples; each mark in a list has a hook of its own, destroyed when the mark is
/// removed. An effect pushes a "toast" event, which is not state: it goes to the hooks
/// on the tabs of whoever pinged, or on every member's tabs of a shared room, and is
/// never replayed. The readings are an append-only feed: the server keeps only the
/// newest few, the page keeps what it showed.
///
/// ## View (JSON)
/// ```json
/// {"running": true, "tick": 120, "latest": 71, "samples": [50, 55, …],
///  "readings": [{"id": 119, "value": 68}, {"id": 120, "value": 71}],
///  "marks": [{"id": 1, "tick": 80, "value": 42}]}
/// ```
///
/// ## Client actions
/// `{"pauseTapped":{}}`, `{"resumeTapped":{}}`, `{"markTapped":{}}`,
/// `{"removeMark":{"id":1}}`, `{"pingTapped":{"everyone":false}}`.
///
/// ## Events
/// `toast` with `{"text": "…"}`.
public enum Telemetry: Feature {
  /// How many samples the chart shows, and how many marks are kept.
  public static let sampleCount = 60
  public static let maxMarks = 8

  public struct Reading: Encodable, Sendable, Equatable {
    public let id: Int
    public let value: Int
  }

  public struct Mark: Encodable, Sendable, Equatable {
    public let id: Int
    public let tick: Int
    public let value: Int
  }

  /// What a toast event carries.
  public struct Toast: Encodable, Sendable, Equatable {
    public let text: String
  }

  public struct State: Equatable, Sendable {
    public var running = true
    public var tick = 0
    public var samples: [Int] = []
    public var readings = FeedBatch<Reading>(capacity: 5)
    public var marks: [Mark] = []
    public var nextMark = 1

    public init() {}
  }

  public enum ClientAction: Decodable, Sendable, Equatable {
    case pauseTapped
    case resumeTapped
    case markTapped
    case removeMark(id: Int)
    case pingTapped(everyone: Bool)
  }

  public enum Action: Sendable, Equatable {
    case client(Viewer, ClientAction)
    case ticked
  }

  public struct ViewState: Encodable, Sendable {
    public let running: Bool
    public let tick: Int
    public let latest: Int?
    public let samples: [Int]
    public let readings: FeedBatch<Reading>
    public let marks: [Mark]
  }

  public struct Dependencies: Sendable {
    /// How often a reading arrives.
    public var interval: Duration
    /// The clock readings arrive on; a `TestClock` in tests.
    public var clock: any Clock<Duration>

    public init(interval: Duration = .milliseconds(250), clock: any Clock<Duration> = ContinuousClock()) {
      self.interval = interval
      self.clock = clock
    }
  }

  public static func embed(_ action: ClientAction, from viewer: Viewer) -> Action { .client(viewer, action) }

  public static func viewState(_ state: State) -> ViewState {
    ViewState(
      running: state.running, tick: state.tick, latest: state.samples.last, samples: state.samples,
      readings: state.readings, marks: state.marks)
  }

  /// The reading at `tick`: a slow wave with a faster ripple, the same on every run.
  public static func reading(at tick: Int) -> Int {
    let t = Double(tick)
    return Int((50 + 30 * sin(t / 9) + 12 * sin(t / 2.3)).rounded())
  }

  public static func makeStore(dependencies: Dependencies, join: Join) -> Store<State, Action> {
    Store(
      initialState: State(), reducer: reducer(),
      eventSources: [.timer(every: dependencies.interval, clock: dependencies.clock) { .ticked }])
  }
}
