import Testing

@testable import StatecastJSON

@Suite struct JSONPointerTests {
  /// The example document of RFC 6901 §5.
  private let document: JSON = [
    "foo": ["bar", "baz"], "": 0, "a/b": 1, "c%d": 2, "e^f": 3, "g|h": 4, "i\\j": 5, "k\"l": 6, " ": 7,
    "m~n": 8,
  ]

  @Test(
    arguments: [
      ("", nil), ("/foo", nil), ("/foo/0", "bar"), ("/", 0), ("/a~1b", 1), ("/c%d", 2), ("/e^f", 3),
      ("/g|h", 4),
      ("/i\\j", 5), ("/k\"l", 6), ("/ ", 7), ("/m~0n", 8),
    ] as [(String, JSON?)])
  func resolvesTheRFCExamples(pointer: String, expected: JSON?) throws {
    let parsed = try JSONPointer(pointer)
    #expect(parsed.description == pointer)
    switch pointer {
    case "": #expect(document[parsed] == document)
    case "/foo": #expect(document[parsed] == ["bar", "baz"])
    default: #expect(document[parsed] == expected)
    }
  }

  @Test func escapesInTheRightOrder() throws {
    #expect(try JSONPointer("/~01").tokens == ["~1"])
    #expect(JSONPointer(tokens: ["~1"]).description == "/~01")
    #expect(JSONPointer(tokens: ["a/b", "m~n", ""]).description == "/a~1b/m~0n/")
    #expect(try JSONPointer("/a~1b/m~0n/").tokens == ["a/b", "m~n", ""])
  }

  @Test func rejectsMalformedPointers() {
    for text in ["a", "/~", "/~2", "/a~"] {
      #expect(throws: JSONPatchError.invalidPointer(text)) { try JSONPointer(text) }
    }
  }

  @Test func arrayIndicesHaveNoLeadingZeros() {
    #expect(JSONPointer.arrayIndex("0") == 0)
    #expect(JSONPointer.arrayIndex("12") == 12)
    #expect(JSONPointer.arrayIndex("01") == nil)
    #expect(JSONPointer.arrayIndex("-") == nil)
    #expect(JSONPointer.arrayIndex("1a") == nil)
    #expect(JSONPointer.arrayIndex("") == nil)
  }

  @Test func prefixes() throws {
    #expect(try JSONPointer("/a").isProperPrefix(of: JSONPointer("/a/b")))
    #expect(try !JSONPointer("/a").isProperPrefix(of: JSONPointer("/a")))
    #expect(try !JSONPointer("/a").isProperPrefix(of: JSONPointer("/ab")))
    #expect(JSONPointer.root.isProperPrefix(of: try JSONPointer("/x")))
  }
}
