import Foundation
import Synchronization

/// Collects values that dependencies report from concurrent effects, so that a test
/// can check what was called, with what, and how it ended.
final class Recorder<Value: Sendable>: Sendable {
  private let storage = Mutex<[Value]>([])

  func record(_ value: Value) {
    storage.withLock { $0.append(value) }
  }

  var values: [Value] {
    storage.withLock { $0 }
  }
}

/// An error with a fixed, readable message, thrown by test dependencies.
struct TestFailure: LocalizedError, Equatable {
  let message: String
  init(_ message: String) { self.message = message }
  var errorDescription: String? { message }
}
