import Testing

@testable import StatecastServer

/// One upload's progress as a value: which chunks it takes and when it is complete.
@Suite(.timeLimit(.minutes(1))) struct UploadProgressTests {
  @Test func chunksAreTakenInOrderUpToTheAnnouncedSize() {
    var progress = UploadProgress(size: 10, maxInFlight: 4)
    #expect(progress.chunk(offset: 0, count: 4) == .accept(isLast: false))
    #expect(progress.chunk(offset: 8, count: 2) == .refuse("expected the chunk at offset 4, not 8"))
    #expect(
      progress.chunk(offset: 4, count: 7) == .refuse("the chunk goes past the announced size of 10 bytes"))
    #expect(progress.chunk(offset: 4, count: 0) == .refuse("a chunk holds at least one byte"))
    #expect(progress.chunk(offset: 4, count: 6) == .accept(isLast: true))
    #expect(progress.phase == .finishing)
    #expect(progress.chunk(offset: 10, count: 1) == .refuse("the upload is already complete"))
    progress.wrote(4)
    progress.wrote(6)
    #expect(progress.written == 10 && progress.inFlight == 0)
    progress.finished()
    #expect(progress.phase == .done)
  }

  @Test func aClientIgnoringItsWindowIsRefusedNotBuffered() {
    var progress = UploadProgress(size: 100, maxInFlight: 2)
    #expect(progress.chunk(offset: 0, count: 10) == .accept(isLast: false))
    #expect(progress.chunk(offset: 10, count: 10) == .accept(isLast: false))
    #expect(progress.chunk(offset: 20, count: 10) == .refuse("more than 2 chunks in flight"))
    progress.wrote(10)
    #expect(progress.chunk(offset: 20, count: 10) == .accept(isLast: false))
    #expect(progress.received == 30 && progress.written == 10 && progress.inFlight == 2)
  }

  @Test func anEmptyFileIsCompleteAtOnceAndACancelStopsIt() {
    #expect(UploadProgress(size: 0, maxInFlight: 1).phase == .finishing)
    var progress = UploadProgress(size: 5, maxInFlight: 1)
    progress.cancel()
    #expect(progress.chunk(offset: 0, count: 5) == .refuse("the upload is already complete"))
  }

  @Test func aChunkNamesItsUploadAndOffset() throws {
    let id = (0..<16).map { UInt8($0 * 17) }
    let message = id + [0, 0, 0, 0, 0, 1, 0, 2] + [7, 8, 9]
    let chunk = try #require(UploadChunk(message))
    #expect(chunk.id == "00112233445566778899aabbccddeeff")
    #expect(chunk.offset == 65_538)
    #expect(Array(chunk.bytes) == [7, 8, 9])
    #expect(UploadChunk(Array(message.prefix(23))) == nil)
  }

  @Test func theDigestIsSHA256() {
    let digest = SHA256Digest()
    digest.update(ArraySlice("ab".utf8))
    digest.update(ArraySlice("c".utf8))
    #expect(digest.finish() == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
  }
}
