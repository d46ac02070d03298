import Foundation
import Statecast
import StatecastTransport

/// One upload the server accepted: who started it, where its bytes go, and the queue of
/// chunks its writer task writes in order.
///
/// Thread safety: `progress` is locked; the rest is immutable, and the queue's
/// continuation is safe to use from any thread.
final class Upload: Sendable {
  /// What the writer task does next, in order.
  enum Write: Sendable {
    /// Write these bytes (already checked against `progress`).
    case chunk(ArraySlice<UInt8>)
    /// Resume the continuation once every chunk before it is written.
    case barrier(CheckedContinuation<Void, Never>)
  }

  let id: String
  /// The session that announced it: the only one that may add to it.
  let session: Session
  let topic: String
  let name: String
  let type: String
  let size: Int
  let path: URL
  let target: TopicUploads
  let queue: AsyncStream<Write>.Continuation
  /// Which chunk it takes next and when it is complete. Locked while a chunk is checked
  /// and queued, so that the queue's order is the order of the offsets it accepted.
  let progress: Locked<UploadProgress>

  init(
    id: String, session: Session, topic: String, name: String, type: String, size: Int, path: URL,
    target: TopicUploads, progress: UploadProgress, queue: AsyncStream<Write>.Continuation
  ) {
    self.id = id
    self.session = session
    self.topic = topic
    self.name = name
    self.type = type
    self.size = size
    self.path = path
    self.target = target
    self.queue = queue
    self.progress = Locked(progress)
  }

  /// Where the upload's announcement is kept beside its bytes, so that it can be resumed
  /// after the server restarts.
  var recordPath: URL { path.appendingPathExtension("upload") }

  /// The file as the store receives it.
  func file(sha256: String) -> UploadedFile {
    UploadedFile(id: id, name: name, size: size, type: type, sha256: sha256, path: path.path)
  }
}
