import Foundation
import Synchronization

/// A fresh directory under the system's temporary directory, removed by `remove()`.
struct TemporaryDirectory {
  let url: URL

  init() throws {
    url = FileManager.default.temporaryDirectory.appending(path: "statecast-storage-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  }

  var databasePath: String { url.appending(path: "statecast.sqlite").path }

  func remove() {
    try? FileManager.default.removeItem(at: url)
  }
}

/// A small seeded generator (SplitMix64) behind a lock, for reproducible test data.
final class SeededRandom: Sendable {
  private let state: Mutex<UInt64>

  init(seed: UInt64) { state = Mutex(seed) }

  func next() -> UInt64 {
    state.withLock { state in
      state &+= 0x9E37_79B9_7F4A_7C15
      var z = state
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      return z ^ (z >> 31)
    }
  }
}

/// A clock that tests move by hand, for `lastUsed` and `savedAt`.
final class ManualClock: Sendable {
  private let time = Mutex(Date(timeIntervalSince1970: 1_700_000_000))

  var now: Date { time.withLock { $0 } }

  func advance(by seconds: TimeInterval) {
    time.withLock { $0 += seconds }
  }
}

/// Collects values from concurrent code so that a test can read them afterwards.
final class Recorder<Value: Sendable>: Sendable {
  private let storage = Mutex<[Value]>([])

  func record(_ value: Value) { storage.withLock { $0.append(value) } }

  var values: [Value] { storage.withLock { $0 } }
}
