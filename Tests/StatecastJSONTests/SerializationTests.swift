import Foundation
import Testing

@testable import StatecastJSON

@Suite struct SerializationTests {
  private func text(_ value: JSON) -> String { String(decoding: value.serialized(), as: UTF8.self) }

  @Test func escapesOnlyWhatJSONRequires() {
    #expect(text(.string("a\"b\\c/d")) == #""a\"b\\c/d""#)
    #expect(text(.string("\u{0}\u{1f}\n\r\t\u{8}\u{c}")) == #""\u0000\u001f\n\r\t\b\f""#)
    #expect(text(.string("é😀\u{7f}")) == "\"é😀\u{7f}\"")
  }

  @Test func writesNumbersShortestAndExact() {
    #expect(text(.int(.min)) == "-9223372036854775808")
    #expect(text(.int(.max)) == "9223372036854775807")
    #expect(text(.int(0)) == "0")
    #expect(text(.double(2)) == "2")
    #expect(text(.double(-0.0)) == "-0")
    #expect(text(.double(0.1)) == "0.1")
    #expect(text(.double(1e-7)) == "1e-07")
    #expect(text(.double(1e300)) == "1e+300")
    #expect(text(.double(123456.789)) == "123456.789")
    #expect(text(.double(.nan)) == "null")
    #expect(text(.double(.infinity)) == "null")
  }

  @Test func writesCompactContainersInOrder() {
    let value: JSON = ["z": [1, "two", .null], "a": .object([:]), "m": []]
    #expect(text(value) == #"{"z":[1,"two",null],"a":{},"m":[]}"#)
  }

  @Test func appendsIntoAnExistingBuffer() {
    var buffer = Array("prefix:".utf8)
    JSON.array([true, false]).serialize(into: &buffer)
    #expect(String(decoding: buffer, as: UTF8.self) == "prefix:[true,false]")
  }

  @Test func doublesRoundTripExactly() throws {
    var generator = SeededGenerator(seed: 3)
    for _ in 0..<2_000 {
      let double = Double(bitPattern: generator.next())
      guard double.isFinite else { continue }
      let parsed = try JSON(parsing: JSON.double(double).serialized())
      #expect(parsed.doubleValue?.bitPattern == double.bitPattern || (double == 0 && parsed.doubleValue == 0))
    }
  }
}
