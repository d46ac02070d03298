import Foundation
import Testing

@testable import StatecastJSON

@Suite struct ParsingTests {
  @Test(arguments: [
    (#"null"#, JSON.null),
    (#" true "#, .bool(true)),
    (#"false"#, .bool(false)),
    (#"0"#, .int(0)),
    (#"-0"#, .double(-0.0)),
    (#"-12"#, .int(-12)),
    (#"9223372036854775807"#, .int(.max)),
    (#"-9223372036854775808"#, .int(.min)),
    (#"9223372036854775808"#, .double(9_223_372_036_854_775_808)),
    (#"1.5"#, .double(1.5)),
    (#"1e3"#, .double(1000)),
    (#"1E-2"#, .double(0.01)),
    (#"-2.5e+2"#, .double(-250)),
    (#"0.1"#, .double(0.1)),
    (#"123456789012345678901234567890"#, .double(1.2345678901234568e29)),
    (#"2.2250738585072014e-308"#, .double(2.2250738585072014e-308)),
    (#"4.9e-324"#, .double(.leastNonzeroMagnitude)),
    (#""""#, .string("")),
    (#""a\"b\\c\/d\b\f\n\r\t""#, .string("a\"b\\c/d\u{8}\u{c}\n\r\t")),
    (#""\u00e9\u20AC\ud83d\ude00""#, .string("é€😀")),
    (#""é€😀""#, .string("é€😀")),
    (#"[]"#, .array([])),
    (#"[1,[2,[]],{}]"#, .array([1, [2, []], .object([:])])),
    ("{ \"a\" :\t1 ,\r\n\"b\":[true]}", JSON.object(["a": 1, "b": [true]])),
  ])
  func parsesValid(text: String, expected: JSON) throws {
    let parsed = try JSON(parsing: Array(text.utf8))
    #expect(parsed == expected)
    if case .double(let expectedDouble) = expected, case .double(let parsedDouble) = parsed {
      #expect(parsedDouble.bitPattern == expectedDouble.bitPattern)
    }
  }

  @Test(arguments: [
    ("", JSONParsingError(.unexpectedEndOfInput, at: 0)),
    ("   ", JSONParsingError(.unexpectedEndOfInput, at: 3)),
    ("01", JSONParsingError(.leadingZero, at: 0)),
    ("-01", JSONParsingError(.leadingZero, at: 0)),
    ("1.", JSONParsingError(.unexpectedEndOfInput, at: 2)),
    ("1.e3", JSONParsingError(.invalidNumber, at: 2)),
    (".5", JSONParsingError(.unexpectedCharacter(UInt8(ascii: ".")), at: 0)),
    ("-", JSONParsingError(.unexpectedEndOfInput, at: 1)),
    ("+1", JSONParsingError(.unexpectedCharacter(UInt8(ascii: "+")), at: 0)),
    ("1e", JSONParsingError(.unexpectedEndOfInput, at: 2)),
    ("1e400", JSONParsingError(.numberOutOfRange, at: 0)),
    ("NaN", JSONParsingError(.unexpectedCharacter(UInt8(ascii: "N")), at: 0)),
    ("tru", JSONParsingError(.unexpectedEndOfInput, at: 3)),
    ("nul1", JSONParsingError(.unexpectedCharacter(UInt8(ascii: "1")), at: 3)),
    ("[1,]", JSONParsingError(.unexpectedCharacter(UInt8(ascii: "]")), at: 3)),
    ("[1 2]", JSONParsingError(.unexpectedCharacter(UInt8(ascii: "2")), at: 3)),
    ("{\"a\":1,}", JSONParsingError(.unexpectedCharacter(UInt8(ascii: "}")), at: 7)),
    ("{a:1}", JSONParsingError(.unexpectedCharacter(UInt8(ascii: "a")), at: 1)),
    ("{\"a\" 1}", JSONParsingError(.unexpectedCharacter(UInt8(ascii: "1")), at: 5)),
    ("{} x", JSONParsingError(.trailingCharacters, at: 3)),
    ("1 2", JSONParsingError(.trailingCharacters, at: 2)),
    ("\"abc", JSONParsingError(.unexpectedEndOfInput, at: 4)),
    ("\"a\u{1}\"", JSONParsingError(.controlCharacterInString, at: 2)),
    ("\"\\x\"", JSONParsingError(.invalidEscape, at: 1)),
    ("\"\\u12G4\"", JSONParsingError(.invalidEscape, at: 5)),
    ("\"\\ud83d\"", JSONParsingError(.loneSurrogate, at: 1)),
    ("\"\\ud83d\\u0041\"", JSONParsingError(.loneSurrogate, at: 1)),
    ("\"\\ude00\"", JSONParsingError(.loneSurrogate, at: 1)),
    ("// c\n1", JSONParsingError(.unexpectedCharacter(UInt8(ascii: "/")), at: 0)),
  ])
  func rejectsInvalid(text: String, expected: JSONParsingError) {
    #expect(throws: expected) { try JSON(parsing: Array(text.utf8)) }
  }

  @Test func rejectsMalformedUTF8AndByteOrderMark() {
    let cases: [([UInt8], Int)] = [
      ([0x22, 0xC3, 0x22], 1),  // truncated two-byte sequence
      ([0x22, 0xC0, 0xAF, 0x22], 1),  // overlong encoding of "/"
      ([0x22, 0xED, 0xA0, 0x80, 0x22], 1),  // UTF-8 encoded surrogate
      ([0x22, 0xF4, 0x90, 0x80, 0x80, 0x22], 1),  // above U+10FFFF
      ([0x22, 0x61, 0xFF, 0x22], 2),
    ]
    for (bytes, offset) in cases {
      #expect(throws: JSONParsingError(.invalidUTF8, at: offset)) { try JSON(parsing: bytes) }
    }
    #expect(throws: JSONParsingError(.unexpectedCharacter(0xEF), at: 0)) {
      try JSON(parsing: [0xEF, 0xBB, 0xBF, 0x31])
    }
  }

  @Test func limitsNestingDepth() throws {
    let deep = String(repeating: "[", count: 64) + String(repeating: "]", count: 64)
    _ = try JSON(parsing: deep)
    #expect(throws: JSONParsingError(.tooDeep(limit: 64), at: 64)) {
      try JSON(parsing: "[" + deep + "]")
    }
    #expect(throws: JSONParsingError(.tooDeep(limit: 2), at: 6)) {
      try JSON(parsing: #"{"a":[[1]]}"#, maxDepth: 2)
    }
    let hostile = String(repeating: "[", count: 1_000_000)
    #expect(throws: JSONParsingError(.tooDeep(limit: 64), at: 64)) { try JSON(parsing: hostile) }
  }

  @Test func repeatedKeysKeepFirstPositionAndLastValue() throws {
    let small = try JSON(parsing: #"{"a":1,"b":2,"a":3}"#)
    #expect(small.objectValue?.keys == ["a", "b"])
    #expect(small["a"] == 3)
    let manyKeys = (0..<40).map { "\"k\($0)\":\($0)" }.joined(separator: ",")
    let large = try JSON(parsing: "{\(manyKeys),\"k3\":\"again\"}")
    #expect(large.objectValue?.count == 40)
    #expect(large["k3"] == "again")
  }

  @Test func errorsSayWhereAndWhat() {
    let error = JSONParsingError(.leadingZero, at: 5)
    #expect(error.description == "leading zeros are not allowed in a number at byte 5")
    #expect(
      JSONParsingError(.unexpectedCharacter(0x7D), at: 3).description == "unexpected character '}' at byte 3")
  }

  @Test func roundTripsThroughSerializationAndAgreesWithFoundation() throws {
    var documents = RandomDocuments(seed: 7)
    for _ in 0..<500 {
      let value = documents.value()
      let bytes = value.serialized()
      let reparsed = try JSON(parsing: bytes)
      #expect(reparsed == value)
      // Foundation's parser must read our output as the same value.
      let foundation = try JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed])
      let viaFoundation = try JSON(
        parsing: JSONSerialization.data(withJSONObject: foundation, options: [.fragmentsAllowed]))
      #expect(viaFoundation == value)
    }
  }

  @Test func parsesFromDataSlicesAndStrings() throws {
    let data = Data(#"xx{"a":[1,2]}"#.utf8).dropFirst(2)
    #expect(try JSON(parsing: data) == ["a": [1, 2]])
    #expect(try JSON(parsing: #"{"a":[1,2]}"#) == ["a": [1, 2]])
  }
}
