import StatecastJSON
import Testing

@testable import StatecastServer

/// The frames the server writes byte by byte: each must be the JSON its fields say, for
/// any ref and revision, and a patch frame's operations the patch's wire form.
@Suite(.timeLimit(.minutes(1))) struct ServerMessageTests {
  func text(_ frame: OutboundFrame) -> String {
    String(decoding: frame.payload, as: UTF8.self)
  }

  @Test func aReplyCarriesItsRefWhateverItsSize() throws {
    for ref: Int64 in [0, 7, 10, 1_234_567, -1, -90, .max, .min] {
      let reply = try JSON(parsing: text(ServerMessage.ok(ref: ref)))
      #expect(reply == ["op": "reply", "ref": .int(ref), "status": "ok"])
      let error = try JSON(parsing: text(ServerMessage.error(ref: ref, ProtocolError(.badAction, "no"))))
      #expect(error["ref"] == .int(ref))
    }
    #expect(text(ServerMessage.ok(ref: nil)) == #"{"op":"reply","ref":null,"status":"ok"}"#)
  }

  @Test func aPatchFrameCarriesItsRevisionAndTheOperations() throws {
    let patch: JSONPatch = [
      .replace(path: JSONPointer(tokens: ["count"]), value: 3),
      .add(path: JSONPointer(tokens: ["rows", "-"]), value: ["id": "a/\"b\""]),
      .remove(path: JSONPointer(tokens: ["say \"hi\"", "~x"])),
    ]
    for rev in [0, 9, 10, 99_999, Int.max] {
      let frame = try JSON(parsing: text(ServerMessage.patch(topic: "board/\"a\"", rev: rev, patch: patch)))
      #expect(frame == ["op": "patch", "topic": "board/\"a\"", "rev": .int(Int64(rev)), "ops": patch.json])
    }
  }
}
