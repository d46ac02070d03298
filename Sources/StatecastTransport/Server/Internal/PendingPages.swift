internal import CLibWebSockets

/// The page requests being rendered: the service thread registers a request and goes
/// on serving; the render finishes in a task, which leaves its answer here and wakes
/// the service thread (`lws_cancel_service`); the service thread then asks for the
/// request's `HTTP_WRITEABLE` and writes the answer there.
///
/// Thread safety: the requests (ids by connection, and each request's `wsi`) are the
/// service thread's alone; the answers are locked, taken by the rendering tasks and the
/// service thread. A request whose connection closes before its answer is forgotten, and
/// its answer dropped when it comes.
final class PendingPages: Sendable {
  private struct Requests {
    var waiting: [Int: Int] = [:]
    var connections: [Int: OpaquePointer] = [:]
    var nextID = 0
  }

  private struct Answers: Sendable {
    var answers: [Int: PageAnswer] = [:]
    /// Answers not yet asked for: the ids finished since the last wake-up.
    var finished: [Int] = []
  }

  private let requests: ServiceThreadBound<Requests>
  private let answers = Locked(Answers())

  init(serviceThread: ServiceThread) {
    requests = ServiceThreadBound(Requests(), serviceThread: serviceThread)
  }

  /// How many requests wait for their page. Service thread.
  var count: Int { requests.value.waiting.count }

  /// Registers the request on `wsi`; returns its id for ``finish(_:with:)``. Service thread.
  func begin(_ wsi: OpaquePointer) -> Int {
    requests.value.nextID += 1
    let id = requests.value.nextID
    requests.value.waiting[Int(bitPattern: UnsafeRawPointer(wsi))] = id
    requests.value.connections[id] = wsi
    return id
  }

  /// The render of request `id` is done. Any thread.
  func finish(_ id: Int, with answer: PageAnswer) {
    answers.withLock {
      $0.answers[id] = answer
      $0.finished.append(id)
    }
  }

  /// Asks for `HTTP_WRITEABLE` on each request whose answer has come. Service thread.
  func wakeFinished() {
    let ids = answers.withLock { answers -> [Int] in
      defer { answers.finished = [] }
      return answers.finished
    }
    for id in ids {
      if let wsi = requests.value.connections[id] {
        lws_callback_on_writable(wsi)
      } else {
        _ = answers.withLock { $0.answers.removeValue(forKey: id) }
      }
    }
  }

  /// The answer for the request on `wsi`, if it has come; the request is then over.
  /// Service thread.
  func take(_ wsi: OpaquePointer) -> PageAnswer? {
    let key = Int(bitPattern: UnsafeRawPointer(wsi))
    guard let id = requests.value.waiting[key],
      let answer = answers.withLock({ $0.answers.removeValue(forKey: id) })
    else {
      return nil
    }
    requests.value.waiting[key] = nil
    requests.value.connections[id] = nil
    return answer
  }

  /// The connection `wsi` closed: its request, if any, is forgotten. Service thread.
  func closed(_ wsi: OpaquePointer) {
    guard let id = requests.value.waiting.removeValue(forKey: Int(bitPattern: UnsafeRawPointer(wsi))) else {
      return
    }
    requests.value.connections[id] = nil
    _ = answers.withLock { $0.answers.removeValue(forKey: id) }
  }
}
