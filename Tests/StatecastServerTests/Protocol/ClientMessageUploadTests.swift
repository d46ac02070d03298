import StatecastJSON
import Testing

@testable import StatecastServer

/// Parsing `upload`, `upload_resume` and `upload_cancel`, and what each refuses.
@Suite(.timeLimit(.minutes(1))) struct ClientMessageUploadTests {
  func parse(_ text: String) -> Result<ClientMessage, ProtocolError> {
    ClientMessage.parse(Array(text.utf8), maxDepth: 8).result
  }

  func code(_ text: String) -> ProtocolError.Code? {
    if case .failure(let error) = parse(text) { return error.code }
    return nil
  }

  @Test func anAnnouncementNamesTopicFileSizeAndType() throws {
    let message = try parse(
      #"{"op":"upload","ref":1,"topic":"uploads","name":"a b.png","size":1200,"type":"image/png"}"#
    ).get()
    guard case .upload(let topic, let name, let size, let type) = message else {
      Issue.record("not an upload")
      return
    }
    #expect(topic == "uploads" && name == "a b.png" && size == 1200 && type == "image/png")
    guard
      case .upload(_, _, _, let none) = try parse(#"{"op":"upload","ref":1,"topic":"t","name":"x","size":0}"#)
        .get()
    else { return }
    #expect(none == "")
  }

  @Test func badAnnouncementsAreBadMessages() {
    for text in [
      #"{"op":"upload","ref":1,"name":"x","size":1}"#,
      #"{"op":"upload","ref":1,"topic":"t","name":"","size":1}"#,
      #"{"op":"upload","ref":1,"topic":"t","name":"a\nb","size":1}"#,
      #"{"op":"upload","ref":1,"topic":"t","name":"x","size":-1}"#,
      #"{"op":"upload","ref":1,"topic":"t","name":"x","size":1.5}"#,
      #"{"op":"upload","ref":1,"topic":"t","name":"x","size":1,"type":"text/plain; charset=utf-8"}"#,
      #"{"op":"upload","ref":1,"topic":"t","name":"\#(String(repeating: "n", count: 256))","size":1}"#,
      #"{"op":"upload_resume","ref":1,"upload":"../../etc/passwd"}"#,
      #"{"op":"upload_cancel","ref":1,"upload":"00112233445566778899AABBCCDDEEFF"}"#,
      #"{"op":"upload_cancel","ref":1}"#,
    ] {
      #expect(code(text) == .badMessage, "\(text)")
    }
  }

  @Test func resumeAndCancelNameTheUpload() throws {
    let id = "00112233445566778899aabbccddeeff"
    guard
      case .uploadResume(let resumed) = try parse(#"{"op":"upload_resume","ref":2,"upload":"\#(id)"}"#).get()
    else {
      Issue.record("not a resume")
      return
    }
    guard
      case .uploadCancel(let cancelled) = try parse(#"{"op":"upload_cancel","ref":3,"upload":"\#(id)"}"#)
        .get()
    else {
      Issue.record("not a cancel")
      return
    }
    #expect(resumed == id && cancelled == id)
  }
}
