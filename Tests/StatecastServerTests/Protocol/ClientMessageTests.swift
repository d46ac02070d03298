import StatecastJSON
import Testing

@testable import StatecastServer

/// Parsing a client frame into one of the four messages, or the error to answer.
@Suite(.timeLimit(.minutes(1))) struct ClientMessageTests {
  func parse(_ text: String) -> (ref: Int64?, result: Result<ClientMessage, ProtocolError>) {
    ClientMessage.parse(Array(text.utf8), maxDepth: 8)
  }

  func code(_ text: String) -> ProtocolError.Code? {
    if case .failure(let error) = parse(text).result { return error.code }
    return nil
  }

  @Test func theFourMessagesParse() throws {
    let join = parse(#"{"op":"join","ref":1,"topic":"room/1","params":{"user":"ada"}}"#)
    #expect(join.ref == 1)
    guard case .join(let topic, let params) = try join.result.get() else {
      Issue.record("not a join"); return
    }
    #expect(topic == "room/1" && params == ["user": "ada"])

    guard
      case .action(_, let action, let key) = try parse(#"{"op":"action","ref":2,"topic":"t","action":null}"#)
        .result.get()
    else { Issue.record("not an action"); return }
    #expect(action == .null && key == nil)

    guard
      case .action(_, _, let key) = try parse(
        #"{"op":"action","ref":2,"topic":"t","action":{},"key":"a-1_Z"}"#
      )
      .result.get()
    else { Issue.record("not an action"); return }
    #expect(key == "a-1_Z")

    guard case .leave(let left) = try parse(#"{"op":"leave","ref":3,"topic":"t"}"#).result.get()
    else { Issue.record("not a leave"); return }
    #expect(left == "t")

    guard
      case .hello(let session, let resume) = try parse(
        #"{"op":"hello","ref":4,"session":"s","resume":{"t":3.0}}"#
      ).result.get()
    else { Issue.record("not a hello"); return }
    #expect(session == "s" && resume == ["t": 3])
  }

  @Test(arguments: ["7", #""""#, #""has space""#, "{}", #"""# + String(repeating: "k", count: 65) + #"""#])
  func anUnusableIdempotencyKeyIsABadMessage(_ key: String) {
    #expect(code(#"{"op":"action","ref":2,"topic":"t","action":{},"key":"# + key + "}") == .badMessage)
  }

  @Test func aJoinWithoutParamsGetsAnEmptyObject() throws {
    for text in [#"{"op":"join","ref":1,"topic":"t"}"#, #"{"op":"join","ref":1,"topic":"t","params":null}"#] {
      guard case .join(_, let params) = try parse(text).result.get() else {
        Issue.record("not a join"); return
      }
      #expect(params == [:])
    }
  }

  @Test func notAnObjectIsBadJSONWithANullRef() {
    for text in [
      "nonsense", "[1]", "42", #"{"op":"join""#,
      String(repeating: "[", count: 20) + String(repeating: "]", count: 20),
    ] {
      #expect(parse(text).ref == nil)
      #expect(code(text) == .badJSON)
    }
  }

  @Test func unusableRefsAreBadMessagesWithANullRef() {
    for ref in ["-1", "1.5", #""7""#, "9007199254740992", "null"] {
      let text = #"{"op":"leave","topic":"t","ref":"# + ref + "}"
      #expect(parse(text).ref == nil)
      #expect(code(text) == .badMessage)
    }
    #expect(parse(#"{"op":"leave","topic":"t","ref":9007199254740991}"#).ref == 9_007_199_254_740_991)
  }

  @Test func missingOrMistypedFieldsAreBadMessagesThatEchoTheRef() {
    let bad = [
      #"{"ref":5}"#, #"{"op":"dance","ref":5}"#, #"{"op":"join","ref":5}"#,
      #"{"op":"join","ref":5,"topic":3}"#,
      #"{"op":"join","ref":5,"topic":"t","params":[]}"#, #"{"op":"action","ref":5,"topic":"t"}"#,
      #"{"op":"leave","ref":5}"#, #"{"op":"hello","ref":5}"#,
      #"{"op":"hello","ref":5,"session":"s","resume":[]}"#,
      #"{"op":"hello","ref":5,"session":"s","resume":{"t":-1}}"#,
    ]
    for text in bad {
      #expect(parse(text).ref == 5, "\(text)")
      #expect(code(text) == .badMessage, "\(text)")
    }
  }
}
