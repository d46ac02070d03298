import Foundation
import Logging
import Statecast
import StatecastJSON
import StatecastTransport

/// Every upload in progress or finished, by id: announcing, resuming and cancelling
/// them, taking their chunks off the socket, writing and hashing them, and removing
/// their files when their session ends.
///
/// Chunks arrive as binary WebSocket messages on the transport's service thread; each
/// upload's writer task writes them to its temporary file in order and acknowledges
/// each one, and the client keeps only a small window of chunks unacknowledged, so a
/// slow disk slows the sender instead of filling memory (docs/PROTOCOL.md, "Uploads").
///
/// Thread safety: `uploads` and every upload's progress are locked (the registry's lock
/// may be held while an upload's is taken, never the other way round); neither is held
/// across an `await` or a call out, except the non-blocking queue `yield`.
final class UploadRegistry: Sendable {
  /// Chunks a client may have unacknowledged (told in every `upload` reply).
  static let window = 8
  /// Accepted chunks one upload may have waiting for the disk; beyond, chunks are refused.
  static let maxInFlight = 16

  /// The fields of a reply (see ``ServerMessage/ok(ref:_:)``).
  typealias ReplyFields = [(String, JSON)]

  /// The most bytes of data in one chunk: a chunk's message fits the message limit.
  let chunkSize: Int
  private let directory: URL
  /// Whether an upload not finished at shutdown stays on disk to be resumed after the
  /// restart (the directory was configured, so the next process finds it).
  private let keepsPartialUploads: Bool
  private let sink: any FrameSink
  private let logger: Logger
  private let uploads = Locked([String: Upload]())
  private let directoryReady = Locked(false)

  init(directory: URL, keepsPartialUploads: Bool, maxMessageSize: Int, sink: any FrameSink, logger: Logger) {
    self.directory = directory
    self.keepsPartialUploads = keepsPartialUploads
    self.chunkSize = maxMessageSize - UploadChunk.headerSize
    self.sink = sink
    self.logger = logger
  }

  // MARK: Client messages (connection tasks)

  /// Announces an upload of `name` to `topic`; refused per the topic's limits.
  /// Returns the reply's fields: the new upload's id, offset 0, chunk size and window.
  /// An empty file is complete at once: it reaches the store before the reply, which
  /// says `done` and carries its hash (no chunk, no `upload_done`).
  func start(
    topic: String, target: TopicUploads, session: Session, name: String, size: Int, type: String
  ) async throws(ProtocolError) -> ReplyFields {
    let (files, bytes) = usage(of: session.id, on: topic)
    if let refusal = target.limits.refusal(name: name, type: type, size: size, files: files, bytes: bytes) {
      throw ProtocolError(.uploadRefused, refusal)
    }
    let id = SessionID.make()
    let path = directory.appendingPathComponent(id)
    do {
      try prepareDirectory()
      guard
        FileManager.default.createFile(
          atPath: path.path, contents: nil, attributes: [.posixPermissions: 0o600])
      else { throw CocoaError(.fileWriteUnknown) }
    } catch {
      logger.error("cannot create an upload's file", metadata: ["error": "\(error)"])
      throw ProtocolError(.unavailable, "the server cannot store files now")
    }
    let (writes, queue) = AsyncStream.makeStream(of: Upload.Write.self, bufferingPolicy: .unbounded)
    let upload = Upload(
      id: id, session: session, topic: topic, name: name, type: type, size: size, path: path, target: target,
      progress: UploadProgress(size: size, maxInFlight: Self.maxInFlight), queue: queue)
    if size == 0 {
      queue.finish()
      let file = upload.file(sha256: SHA256Digest().finish())
      uploads.withLock { $0[id] = upload }
      await target.deliver(file)
      upload.progress.withLock { $0.finished() }
      return reply(upload, offset: 0) + [("sha256", .string(file.sha256))]
    }
    let record: JSON = .object([
      "session": .string(session.id), "topic": .string(topic), "name": .string(name), "type": .string(type),
      "size": .int(Int64(size)),
    ])
    _ = FileManager.default.createFile(
      atPath: upload.recordPath.path, contents: Data(record.serialized()),
      attributes: [.posixPermissions: 0o600])
    uploads.withLock { $0[id] = upload }
    Task { await self.write(upload, writes, digest: SHA256Digest()) }
    return reply(upload, offset: 0)
  }

  /// Continues an upload after a reconnect: answers once every chunk the server
  /// accepted is written, with the offset to send from.
  func resume(_ id: String, session: Session, topics: TopicRegistry) async throws(ProtocolError)
    -> ReplyFields
  {
    let upload: Upload
    do {
      upload = try owned(id, by: session)
    } catch {
      upload = try restore(id, session: session, topics: topics)
    }
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      if case .terminated = upload.queue.yield(.barrier(continuation)) { continuation.resume() }
    }
    let progress = upload.progress.withLock { $0 }
    guard progress.phase != .cancelled else { throw ProtocolError(.unknownUpload, "no upload \(id) here") }
    return reply(upload, offset: progress.written)
  }

  /// Stops an upload and removes what it wrote; a finished one stays the store's.
  func cancel(_ id: String, session: Session) throws(ProtocolError) {
    let upload = try owned(id, by: session)
    let cancelled = uploads.withLock { uploads -> Bool in
      let cancelled = upload.progress.withLock { progress -> Bool in
        guard progress.phase == .receiving else { return false }
        progress.cancel()
        return true
      }
      if cancelled { uploads[id] = nil }
      return cancelled
    }
    if cancelled { upload.queue.finish() }
  }

  /// An upload a previous process of this server left on disk, taken up again by the
  /// session that announced it: its bytes are hashed again and it goes on from there.
  private func restore(_ id: String, session: Session, topics: TopicRegistry) throws(ProtocolError) -> Upload
  {
    let unknown = ProtocolError(.unknownUpload, "no upload \(id) here")
    let path = directory.appendingPathComponent(id)
    guard keepsPartialUploads,
      let bytes = FileManager.default.contents(atPath: path.appendingPathExtension("upload").path),
      case .object(let record)? = try? JSON(parsing: Array(bytes)),
      record["session"] == .string(session.id), case .string(let topic)? = record["topic"],
      case .string(let name)? = record["name"], case .string(let type)? = record["type"],
      case .int(let size)? = record["size"],
      let written = ((try? FileManager.default.attributesOfItem(atPath: path.path))?[.size] as? NSNumber)?
        .intValue,
      written <= size, let reader = FileHandle(forReadingAtPath: path.path)
    else { throw unknown }
    let target = try topics.uploads(on: topic, of: session.id)
    let digest = SHA256Digest()
    while let block = try? reader.read(upToCount: 1 << 20), !block.isEmpty {
      digest.update(ArraySlice(block))
    }
    try? reader.close()
    let (writes, queue) = AsyncStream.makeStream(of: Upload.Write.self, bufferingPolicy: .unbounded)
    let upload = Upload(
      id: id, session: session, topic: topic, name: name, type: type, size: Int(size), path: path,
      target: target,
      progress: UploadProgress(size: Int(size), maxInFlight: Self.maxInFlight, written: written), queue: queue
    )
    let existing = uploads.withLock { uploads -> Upload? in
      if let existing = uploads[id] { return existing }
      uploads[id] = upload
      return nil
    }
    if let existing { return existing }
    logger.debug("upload restored", metadata: ["bytes": "\(written)"])
    Task { await self.write(upload, writes, digest: digest) }
    return upload
  }

  // MARK: Chunks (service thread)

  /// Service thread: a binary message from a socket of `session`. `false` when it is not
  /// a chunk of an upload this session announced (the socket is then closed with 1003).
  func receive(_ message: [UInt8], from session: Session) -> Bool {
    guard let chunk = UploadChunk(message) else { return false }
    guard let upload = uploads.withLock({ $0[chunk.id] }), upload.session.id == session.id else {
      return false
    }
    let (verdict, received) = upload.progress.withLock { progress in
      let verdict = progress.chunk(offset: chunk.offset, count: chunk.bytes.count)
      if case .accept = verdict { upload.queue.yield(.chunk(chunk.bytes)) }
      return (verdict, progress.received)
    }
    if case .refuse(let why) = verdict {
      send(UploadMessage.error(upload.id, offset: received, code: "bad_chunk", message: why), for: upload)
    }
    return true
  }

  // MARK: Lifetimes

  /// The session ended: its uploads stop and every file they wrote is removed.
  func sessionEnded(_ sessionID: String) {
    let ended = uploads.withLock { uploads -> [Upload] in
      let ended = uploads.values.filter { $0.session.id == sessionID }
      for upload in ended {
        uploads[upload.id] = nil
        upload.progress.withLock { $0.cancel() }
      }
      return ended
    }
    for upload in ended {
      upload.queue.finish()
      discard(upload)
    }
  }

  /// The server stops: finished files are removed, and so are unfinished ones unless
  /// they are kept to be resumed after the restart.
  func removeAll() {
    let all = uploads.withLock { uploads -> [(Upload, keep: Bool)] in
      defer { uploads = [:] }
      return uploads.values.map { upload in
        let keep = upload.progress.withLock { progress in
          let keep = keepsPartialUploads && progress.phase == .receiving
          if !keep { progress.cancel() }
          return keep
        }
        return (upload, keep)
      }
    }
    for (upload, keep) in all {
      upload.queue.finish()
      if !keep { discard(upload) }
    }
  }

  /// How many uploads (in progress and finished) are in progress or kept.
  var count: Int { uploads.withLock { $0.count } }

  // MARK: Writing

  /// The upload's writer: writes and hashes its chunks in order, acknowledges each,
  /// and hands the finished file to the store. Removes the file if the upload ends
  /// before it is complete.
  private func write(_ upload: Upload, _ writes: AsyncStream<Upload.Write>, digest: SHA256Digest) async {
    var handle = FileHandle(forWritingAtPath: upload.path.path)
    _ = try? handle?.seekToEnd()
    // Complete on disk before a restart. (Not merely `finishing`: a fresh upload's chunks
    // may all have arrived before this task starts, and are still to be written.)
    if upload.progress.withLock({ $0.phase == .finishing && $0.written == $0.size }) {
      await finish(upload, digest: digest, handle: &handle)
    }
    for await write in writes {
      switch write {
      case .barrier(let continuation):
        continuation.resume()
      case .chunk(let bytes):
        do {
          guard let handle else { throw CocoaError(.fileWriteUnknown) }
          try handle.write(contentsOf: bytes)
        } catch {
          failed(upload, error)
          continue
        }
        digest.update(bytes)
        let (written, complete) = upload.progress.withLock { progress -> (Int, Bool) in
          progress.wrote(bytes.count)
          return (progress.written, progress.phase == .finishing && progress.written == progress.size)
        }
        send(UploadMessage.ack(upload.id, offset: written), for: upload)
        if complete { await finish(upload, digest: digest, handle: &handle) }
      }
    }
    try? handle?.close()
    if upload.progress.withLock({ $0.phase == .cancelled }) { discard(upload) }
  }

  private func finish(_ upload: Upload, digest: SHA256Digest, handle: inout FileHandle?) async {
    try? handle?.close()
    handle = nil
    try? FileManager.default.removeItem(at: upload.recordPath)
    let file = upload.file(sha256: digest.finish())
    await upload.target.deliver(file)
    upload.progress.withLock { $0.finished() }
    send(UploadMessage.done(upload.id, size: file.size, sha256: file.sha256), for: upload)
  }

  private func failed(_ upload: Upload, _ error: any Error) {
    logger.error("an upload could not be written", metadata: ["error": "\(error)"])
    uploads.withLock { uploads in
      upload.progress.withLock { $0.cancel() }
      uploads[upload.id] = nil
    }
    upload.queue.finish()
    send(
      UploadMessage.error(
        upload.id, offset: 0, code: "unavailable", message: "the server could not store the file"),
      for: upload)
  }

  // MARK: Helpers

  /// Removes an upload's file and its record.
  private func discard(_ upload: Upload) {
    try? FileManager.default.removeItem(at: upload.path)
    try? FileManager.default.removeItem(at: upload.recordPath)
  }

  private func owned(_ id: String, by session: Session) throws(ProtocolError) -> Upload {
    guard let upload = uploads.withLock({ $0[id] }), upload.session.id == session.id else {
      throw ProtocolError(.unknownUpload, "no upload \(id) here")
    }
    return upload
  }

  private func usage(of session: String, on topic: String) -> (files: Int, bytes: Int) {
    uploads.withLock { uploads in
      uploads.values.filter { $0.session.id == session && $0.topic == topic }
        .reduce((0, 0)) { ($0.0 + 1, $0.1 + $1.size) }
    }
  }

  private func reply(_ upload: Upload, offset: Int) -> ReplyFields {
    let phase = upload.progress.withLock { $0.phase }
    return [
      ("upload", .string(upload.id)), ("offset", .int(Int64(offset))), ("chunk", .int(Int64(chunkSize))),
      ("window", .int(Int64(Self.window))), ("done", .bool(phase == .done)),
    ]
  }

  private func send(_ frame: OutboundFrame, for upload: Upload) {
    if let connection = upload.session.currentConnection { sink.send(frame, to: connection) }
  }

  private func prepareDirectory() throws {
    guard !directoryReady.withLock({ $0 }) else { return }
    try FileManager.default.createDirectory(
      at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    directoryReady.withLock { $0 = true }
  }
}

extension UploadRegistry {
  /// Handles an `upload`, `upload_resume` or `upload_cancel` of `session`; returns the
  /// reply's fields.
  func handle(_ message: ClientMessage, session: Session, topics: TopicRegistry) async throws(ProtocolError)
    -> ReplyFields
  {
    switch message {
    case .upload(let topic, let name, let size, let type):
      let target = try topics.uploads(on: topic, of: session.id)
      return try await start(
        topic: topic, target: target, session: session, name: name, size: size, type: type)
    case .uploadResume(let id):
      return try await resume(id, session: session, topics: topics)
    case .uploadCancel(let id):
      try cancel(id, session: session)
      return []
    default:
      return []
    }
  }
}
