import Statecast
import StatecastExamples
import StatecastTesting
import Testing

@Suite("FileUploads")
struct FileUploadsTests {
  @Test func finishedFilesAreListedWithTheServersHash() async {
    let store = TestStore(initialState: FileUploads.State(), reducer: FileUploads.reducer())
    let file = UploadedFile(
      id: "00112233445566778899aabbccddeeff", name: "notes.txt", size: 1536, type: "text/plain",
      sha256: String(repeating: "a", count: 64), path: "/tmp/x")
    await store.send(FileUploads.fileUploaded(file)) { $0.files = [file] }
    let view = FileUploads.viewState(store.state)
    #expect(view.files.map(\.sizeText) == ["1 KB"])
    #expect(view.files.map(\.sha256) == [file.sha256])
    await store.send(.client(.clearList)) { $0.files = [] }
    await store.finish()
  }
}
