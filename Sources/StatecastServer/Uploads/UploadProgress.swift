/// One upload's progress as a value: chunks in, writes and a cancel as events, a verdict
/// for each chunk out. Unit-tested without disk or sockets; the ``UploadRegistry`` keeps
/// one per upload under its lock.
///
/// A chunk is accepted only at the next offset (`received`), never past the announced
/// size, and only while fewer than `maxInFlight` accepted chunks wait to be written:
/// a client that ignores its window is refused rather than buffered, so one upload never
/// holds more than `maxInFlight` chunks in memory.
struct UploadProgress: Sendable, Equatable {
  enum Phase: Sendable, Equatable {
    case receiving
    case finishing
    case done
    case cancelled
  }

  enum Verdict: Sendable, Equatable {
    case accept(isLast: Bool)
    case refuse(String)
  }

  let size: Int
  let maxInFlight: Int
  /// Bytes accepted so far (written or waiting to be).
  private(set) var received = 0
  /// Bytes on disk.
  private(set) var written = 0
  /// Accepted chunks not yet written.
  private(set) var inFlight = 0
  private(set) var phase = Phase.receiving

  init(size: Int, maxInFlight: Int) {
    self.size = size
    self.maxInFlight = maxInFlight
    if size == 0 { phase = .finishing }
  }

  /// An upload found on disk after a restart, with `written` bytes there.
  init(size: Int, maxInFlight: Int, written: Int) {
    self.init(size: size, maxInFlight: maxInFlight)
    received = written
    self.written = written
    phase = written == size ? .finishing : .receiving
  }

  /// A chunk of `count` bytes at `offset` arrived.
  mutating func chunk(offset: Int, count: Int) -> Verdict {
    guard phase == .receiving else { return .refuse("the upload is already complete") }
    guard offset == received else {
      return .refuse("expected the chunk at offset \(received), not \(offset)")
    }
    guard count > 0 else { return .refuse("a chunk holds at least one byte") }
    guard count <= size - received else {
      return .refuse("the chunk goes past the announced size of \(size) bytes")
    }
    guard inFlight < maxInFlight else { return .refuse("more than \(maxInFlight) chunks in flight") }
    received += count
    inFlight += 1
    if received == size { phase = .finishing }
    return .accept(isLast: received == size)
  }

  /// A chunk of `count` bytes is on disk.
  mutating func wrote(_ count: Int) {
    written += count
    inFlight -= 1
  }

  /// The file was handed to the store.
  mutating func finished() {
    if phase == .finishing { phase = .done }
  }

  mutating func cancel() {
    phase = .cancelled
  }
}
