import Foundation
import Testing

@testable import StatecastJSON

@Suite struct JSONValueDecoderTests {
  private let decoder = JSONValueDecoder()

  private func decode<T: Decodable>(_ type: T.Type, _ text: String) throws -> T {
    try decoder.decode(T.self, from: Array(text.utf8))
  }

  @Test func decodesSynthesizedEnumsWithAssociatedValues() throws {
    typealias Action = EncodingCorpus.Action
    #expect(try decode(Action.self, #"{"add":{"title":"Milk","extra":1}}"#) == .add(title: "Milk"))
    #expect(try decode(Action.self, #"{"increment":{}}"#) == .increment)
    #expect(try decode(Action.self, #"{"pair":{"_0":1,"_1":"x"}}"#) == .pair(1, "x"))
    #expect(try decode(Action.self, #"{"labeled":{"id":2,"_1":"y"}}"#) == .labeled(id: 2, "y"))
  }

  @Test func roundTripsTheEncodingCorpus() throws {
    let collections = EncodingCorpus.Collections()
    #expect(
      try decoder.decode(EncodingCorpus.Collections.self, from: JSONValueEncoder().encode(collections))
        == collections)
    let scalars = EncodingCorpus.Scalars()
    #expect(
      try decoder.decode(EncodingCorpus.Scalars.self, from: JSONValueEncoder().encode(scalars)) == scalars)
    let optionals = EncodingCorpus.Optionals()
    let decodedOptionals = try decoder.decode(
      EncodingCorpus.Optionals.self, from: JSONValueEncoder().encode(optionals))
    #expect(
      decodedOptionals.present == 1 && decodedOptionals.absent == nil && decodedOptionals.array == ["a", nil])
    let special = EncodingCorpus.Special()
    #expect(
      try decoder.decode(EncodingCorpus.Special.self, from: JSONValueEncoder().encode(special)).data
        == special.data)
    #expect(try decode(Date.self, "1500") == Date(timeIntervalSince1970: 1.5))
    #expect(try decode(EncodingCorpus.Wrapper<[Int]>.self, "[1,2]") == .init([1, 2]))
    #expect(try decode(JSON.self, #"{"a":[1,null]}"#) == ["a": [1, .null]])
  }

  @Test func convertsNumbersLikeFoundation() throws {
    #expect(try decode(Int.self, "1.0") == 1)
    #expect(try decode(Int.self, "1e3") == 1000)
    #expect(try decode(Double.self, "7") == 7)
    #expect(try decode(UInt64.self, "9223372036854775807") == UInt64(Int64.max))
    #expect(try decode(Float.self, "0.1") == Float(0.1))
    #expect(try decode(Decimal.self, "0.1") == Decimal(string: "0.1"))
    for (text, type) in [("1.5", Int.self), ("300", Int8.self), ("-1", UInt.self)]
      as [(String, any Decodable.Type)]
    {
      #expect(throws: DecodingError.self) { try decoder.decode(type, from: Array(text.utf8)) }
    }
    #expect(throws: DecodingError.self) { try decode(Float.self, "3.5e39") }
    #expect(throws: DecodingError.self) { try decode(Bool.self, "1") }
  }

  /// The kind, full coding path and message of the error decoding `text` throws.
  private func failure<T: Decodable>(_ type: T.Type, _ text: String) -> (
    kind: String, path: [String], message: String
  )? {
    do {
      _ = try decode(T.self, text)
      return nil
    } catch let error as DecodingError {
      switch error {
      case .typeMismatch(_, let context):
        return ("typeMismatch", context.codingPath.map(\.stringValue), context.debugDescription)
      case .valueNotFound(_, let context):
        return ("valueNotFound", context.codingPath.map(\.stringValue), context.debugDescription)
      case .keyNotFound(let key, let context):
        return ("keyNotFound", (context.codingPath + [key]).map(\.stringValue), context.debugDescription)
      case .dataCorrupted(let context):
        return ("dataCorrupted", context.codingPath.map(\.stringValue), context.debugDescription)
      @unknown default: return nil
      }
    } catch {
      return nil
    }
  }

  @Test func reportsErrorsWithCodingPaths() {
    struct Todo: Decodable { var title: String; var tags: [Int] }
    let mismatch = failure(Todo.self, #"{"title":"a","tags":[1,"x"]}"#)
    #expect(mismatch?.kind == "typeMismatch")
    #expect(mismatch?.path == ["tags", "Index 1"])
    #expect(mismatch?.message == "Expected to decode Int but found a string instead.")
    let missing = failure(EncodingCorpus.Action.self, #"{"add":{}}"#)
    #expect(missing?.kind == "keyNotFound")
    #expect(missing?.path == ["add", "title"])
    let null = failure(Todo.self, #"{"title":null,"tags":[]}"#)
    #expect(null?.kind == "valueNotFound")
    #expect(null?.message == "Cannot get value of type String -- found null value instead")
    #expect(
      failure(EncodingCorpus.Action.self, #"{"nope":{}}"#)?.message
        == "Invalid number of keys found, expected one.")
    #expect(
      failure(Todo.self, "[]")?.message
        == "Expected to decode Dictionary<String, Any> but found an array instead.")
    #expect(failure([Int].self, "[1]") == nil)
    #expect(failure(Int8.self, "300")?.message == "Number 300 does not fit in Int8.")
    let malformed = failure(Int.self, "[1,")
    #expect(malformed?.kind == "dataCorrupted")
    #expect(malformed?.message == "The given data was not valid JSON: unexpected end of input at byte 3.")
  }

  @Test func agreesWithJSONDecoderOnWhatDecodes() throws {
    struct Probe: Codable, Equatable { var a: Int; var b: String?; var c: [Double] }
    let inputs = [
      #"{"a":1,"b":"x","c":[1,2.5]}"#, #"{"a":1,"c":[]}"#, #"{"a":1,"b":null,"c":[]}"#, #"{"a":"1","c":[]}"#,
      #"{"a":1}"#, #"{"a":1.0,"c":[1e2]}"#, #"{"a":1.5,"c":[]}"#, #"[1]"#, #"{"a":1,"c":[null]}"#,
    ]
    for input in inputs {
      let ours = try? decode(Probe.self, input)
      let foundation = try? JSONDecoder().decode(Probe.self, from: Data(input.utf8))
      #expect(ours == foundation, "\(input)")
    }
  }
}
