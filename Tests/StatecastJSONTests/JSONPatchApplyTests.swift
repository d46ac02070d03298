import Testing

@testable import StatecastJSON

@Suite struct JSONPatchApplyTests {
  /// RFC 6902 Appendix A, as (document, patch, expected result or nil for an error).
  static let appendixA: [(String, String, String, String?)] = [
    ("A.1", #"{"foo":"bar"}"#, #"[{"op":"add","path":"/baz","value":"qux"}]"#, #"{"baz":"qux","foo":"bar"}"#),
    (
      "A.2", #"{"foo":["bar","baz"]}"#, #"[{"op":"add","path":"/foo/1","value":"qux"}]"#,
      #"{"foo":["bar","qux","baz"]}"#
    ),
    ("A.3", #"{"baz":"qux","foo":"bar"}"#, #"[{"op":"remove","path":"/baz"}]"#, #"{"foo":"bar"}"#),
    (
      "A.4", #"{"foo":["bar","qux","baz"]}"#, #"[{"op":"remove","path":"/foo/1"}]"#, #"{"foo":["bar","baz"]}"#
    ),
    (
      "A.5", #"{"baz":"qux","foo":"bar"}"#, #"[{"op":"replace","path":"/baz","value":"boo"}]"#,
      #"{"baz":"boo","foo":"bar"}"#
    ),
    (
      "A.6", #"{"foo":{"bar":"baz","waldo":"fred"},"qux":{"corge":"grault"}}"#,
      #"[{"op":"move","from":"/foo/waldo","path":"/qux/thud"}]"#,
      #"{"foo":{"bar":"baz"},"qux":{"corge":"grault","thud":"fred"}}"#
    ),
    (
      "A.7", #"{"foo":["all","grass","cows","eat"]}"#, #"[{"op":"move","from":"/foo/1","path":"/foo/3"}]"#,
      #"{"foo":["all","cows","eat","grass"]}"#
    ),
    (
      "A.8", #"{"baz":"qux","foo":["a",2,"c"]}"#,
      #"[{"op":"test","path":"/baz","value":"qux"},{"op":"test","path":"/foo/1","value":2}]"#,
      #"{"baz":"qux","foo":["a",2,"c"]}"#
    ),
    ("A.9", #"{"baz":"qux"}"#, #"[{"op":"test","path":"/baz","value":"bar"}]"#, nil),
    (
      "A.10", #"{"foo":"bar"}"#, #"[{"op":"add","path":"/child","value":{"grandchild":{}}}]"#,
      #"{"foo":"bar","child":{"grandchild":{}}}"#
    ),
    (
      "A.11", #"{"foo":"bar"}"#, #"[{"op":"add","path":"/baz","value":"qux","xyz":123}]"#,
      #"{"foo":"bar","baz":"qux"}"#
    ),
    ("A.12", #"{"foo":"bar"}"#, #"[{"op":"add","path":"/baz/bat","value":"qux"}]"#, nil),
    ("A.13", #"{"foo":"bar"}"#, #"[{"op":"add","path":"/baz","value":"qux","op":"remove"}]"#, nil),
    ("A.14", #"{"/":9,"~1":10}"#, #"[{"op":"test","path":"/~01","value":10}]"#, #"{"/":9,"~1":10}"#),
    ("A.15", #"{"/":9,"~1":10}"#, #"[{"op":"test","path":"/~01","value":"10"}]"#, nil),
    (
      "A.16", #"{"foo":["bar"]}"#, #"[{"op":"add","path":"/foo/-","value":["abc","def"]}]"#,
      #"{"foo":["bar",["abc","def"]]}"#
    ),
  ]

  @Test(arguments: appendixA.map(\.0))
  func followsRFC6902AppendixA(name: String) throws {
    let (_, documentText, patchText, expectedText) = Self.appendixA.first { $0.0 == name }!
    let document = try JSON(parsing: documentText)
    let result = Result { try JSONPatch(json: JSON(parsing: patchText)).applied(to: document) }
    if let expectedText {
      #expect(try result.get() == JSON(parsing: expectedText))
    } else {
      #expect(throws: (any Error).self) { try result.get() }
    }
  }

  private func apply(_ patch: String, to document: String) throws -> JSON {
    try JSONPatch(json: JSON(parsing: patch)).applied(to: JSON(parsing: document))
  }

  @Test func reportsTypedErrors() throws {
    let doc = #"{"a":[1,2],"o":{"k":1}}"#
    #expect(throws: JSONPatchError.pathNotFound(try JSONPointer("/x/y"), operation: 0)) {
      try apply(#"[{"op":"add","path":"/x/y","value":1}]"#, to: doc)
    }
    #expect(throws: JSONPatchError.invalidIndex(try JSONPointer("/a/3"), operation: 0)) {
      try apply(#"[{"op":"add","path":"/a/3","value":1}]"#, to: doc)
    }
    #expect(throws: JSONPatchError.invalidIndex(try JSONPointer("/a/01"), operation: 0)) {
      try apply(#"[{"op":"add","path":"/a/01","value":1}]"#, to: doc)
    }
    #expect(throws: JSONPatchError.invalidIndex(try JSONPointer("/a/-"), operation: 1)) {
      try apply(#"[{"op":"test","path":"/a","value":[1,2.0]},{"op":"remove","path":"/a/-"}]"#, to: doc)
    }
    #expect(throws: JSONPatchError.pathNotFound(try JSONPointer("/o/nope"), operation: 0)) {
      try apply(#"[{"op":"replace","path":"/o/nope","value":1}]"#, to: doc)
    }
    #expect(
      throws: JSONPatchError.moveIntoItself(
        from: try JSONPointer("/o"), path: try JSONPointer("/o/k/x"), operation: 0)
    ) {
      try apply(#"[{"op":"move","from":"/o","path":"/o/k/x"}]"#, to: doc)
    }
    #expect(throws: JSONPatchError.cannotRemoveRoot(operation: 0)) {
      try apply(#"[{"op":"remove","path":""}]"#, to: doc)
    }
    #expect(throws: JSONPatchError.testFailed(try JSONPointer("/o"), operation: 0)) {
      try apply(#"[{"op":"test","path":"/o","value":{"k":1,"j":2}}]"#, to: doc)
    }
    #expect(throws: JSONPatchError.invalidPatch("operation 0 (add) has no \"value\"")) {
      try apply(#"[{"op":"add","path":"/x"}]"#, to: doc)
    }
    #expect(throws: JSONPatchError.invalidPatch("operation 1 has unknown op \"frobnicate\"")) {
      try apply(#"[{"op":"test","path":"","value":null},{"op":"frobnicate","path":""}]"#, to: "null")
    }
  }

  @Test func supportsEveryOperation() throws {
    let doc = #"{"a":[1,2],"o":{"k":{"deep":true}}}"#
    #expect(
      try apply(#"[{"op":"copy","from":"/o/k","path":"/a/0"}]"#, to: doc) == [
        "a": [["deep": true], 1, 2], "o": ["k": ["deep": true]],
      ])
    #expect(
      try apply(#"[{"op":"move","from":"/a","path":"/o/a"}]"#, to: doc) == [
        "o": ["k": ["deep": true], "a": [1, 2]]
      ])
    #expect(try apply(#"[{"op":"move","from":"/a/0","path":"/a/-"}]"#, to: doc)["a"] == [2, 1])
    #expect(try apply(#"[{"op":"move","from":"/a","path":"/a"}]"#, to: doc) == JSON(parsing: doc))
    #expect(try apply(#"[{"op":"replace","path":"","value":[1]}]"#, to: doc) == [1])
    #expect(try apply(#"[{"op":"add","path":"","value":{"x":1}}]"#, to: doc) == ["x": 1])
    #expect(try apply(#"[{"op":"add","path":"/o/k","value":5}]"#, to: doc)["o"] == ["k": 5])
    #expect(try apply(#"[{"op":"test","path":"/a/1","value":2.0}]"#, to: doc) == JSON(parsing: doc))
  }

  @Test func isAtomic() throws {
    var document: JSON = ["a": [1, 2, 3], "b": "keep"]
    let original = document
    let patch: JSONPatch = [
      .replace(path: try JSONPointer("/b"), value: "changed"),
      .remove(path: try JSONPointer("/a/0")),
      .remove(path: try JSONPointer("/missing")),
    ]
    #expect(throws: JSONPatchError.pathNotFound(try JSONPointer("/missing"), operation: 2)) {
      try patch.apply(to: &document)
    }
    #expect(document == original)
    #expect(document["b"] == "keep")
  }

  @Test func serializesTheWireForm() throws {
    let patch: JSONPatch = [
      .add(path: try JSONPointer("/a~1b/-"), value: ["x": 1]), .remove(path: try JSONPointer("/m~0n")),
      .move(from: try JSONPointer("/a"), path: try JSONPointer("/b")), .test(path: .root, value: .null),
    ]
    let text = String(decoding: patch.serialized(), as: UTF8.self)
    #expect(
      text
        == #"[{"op":"add","path":"/a~1b/-","value":{"x":1}},{"op":"remove","path":"/m~0n"},{"op":"move","from":"/a","path":"/b"},{"op":"test","path":"","value":null}]"#
    )
    #expect(patch.json.serialized() == patch.serialized())
    #expect(try JSONPatch(json: JSON(parsing: text)) == patch)
  }

  /// Pointers are written without their `description` when no token needs escaping; a
  /// token with a quote, a backslash, a control character, `~` or `/` still comes out
  /// as the value form would write it.
  @Test func serializesPointersLikeTheValueForm() throws {
    let tokens = ["plain", "é ü 字", "say \"hi\"", "back\\slash", "line\nbreak", "a~b", "c/d", "", "0"]
    let patch = JSONPatch(
      tokens.map { .replace(path: JSONPointer(tokens: ["rows", $0]), value: 1) }
        + [.copy(from: JSONPointer(tokens: ["x\u{1}"]), path: JSONPointer(tokens: ["y", "z"]))])
    #expect(patch.json.serialized() == patch.serialized())
    #expect(try JSONPatch(json: JSON(parsing: patch.serialized())) == patch)
  }
}
