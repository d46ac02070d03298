internal import CLibWebSockets
import Synchronization

/// The page requests being rendered: the service thread registers a request and goes
/// on serving; the render finishes in a task, which leaves its answer here and wakes
/// the service thread (`lws_cancel_service`); the service thread then asks for the
/// request's `HTTP_WRITEABLE` and writes the answer there.
///
/// Thread safety: `waiting` (request ids by connection) is the service thread's alone;
/// `answers` is guarded by its mutex, taken by the rendering tasks and the service
/// thread. A request whose connection closes before its answer is forgotten, and its
/// answer dropped when it comes.
final class PendingPages: @unchecked Sendable {
  // Sendable: see above; `waiting` and `connections` are touched on the service thread only.
  private var waiting: [Int: Int] = [:]
  private var connections: [Int: OpaquePointer] = [:]
  private var nextID = 0
  private let answers = Mutex<[Int: PageAnswer]>([:])
  /// Answers not yet asked for: the ids finished since the last wake-up.
  private let finished = Mutex<[Int]>([])

  /// How many requests wait for their page. Service thread.
  var count: Int { waiting.count }

  /// Registers the request on `wsi`; returns its id for ``finish(_:with:)``. Service thread.
  func begin(_ wsi: OpaquePointer) -> Int {
    nextID += 1
    waiting[Int(bitPattern: UnsafeRawPointer(wsi))] = nextID
    connections[nextID] = wsi
    return nextID
  }

  /// The render of request `id` is done. Any thread.
  func finish(_ id: Int, with answer: PageAnswer) {
    answers.withLock { $0[id] = answer }
    finished.withLock { $0.append(id) }
  }

  /// Asks for `HTTP_WRITEABLE` on each request whose answer has come. Service thread.
  func wakeFinished() {
    let ids = finished.withLock { ids -> [Int] in
      defer { ids = [] }
      return ids
    }
    for id in ids {
      if let wsi = connections[id] {
        lws_callback_on_writable(wsi)
      } else {
        _ = answers.withLock { $0.removeValue(forKey: id) }
      }
    }
  }

  /// The answer for the request on `wsi`, if it has come; the request is then over.
  /// Service thread.
  func take(_ wsi: OpaquePointer) -> PageAnswer? {
    let key = Int(bitPattern: UnsafeRawPointer(wsi))
    guard let id = waiting[key], let answer = answers.withLock({ $0.removeValue(forKey: id) }) else {
      return nil
    }
    waiting[key] = nil
    connections[id] = nil
    return answer
  }

  /// The connection `wsi` closed: its request, if any, is forgotten. Service thread.
  func closed(_ wsi: OpaquePointer) {
    guard let id = waiting.removeValue(forKey: Int(bitPattern: UnsafeRawPointer(wsi))) else { return }
    connections[id] = nil
    _ = answers.withLock { $0.removeValue(forKey: id) }
  }
}
