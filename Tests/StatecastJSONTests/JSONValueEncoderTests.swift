import Foundation
import Testing

@testable import StatecastJSON

@Suite struct JSONValueEncoderTests {
  @Test(arguments: EncodingCorpus.values.map(\.0))
  func producesTheSameJSONAsFoundation(name: String) throws {
    let value = EncodingCorpus.values.first { $0.0 == name }!.1
    let ours = try JSONValueEncoder().encode(value)
    let foundation = try JSON(parsing: JSONEncoder().encode(value))
    #expect(ours == foundation, "\(name): \(ours) vs \(foundation)")
  }

  @Test func keepsDeclarationOrder() throws {
    let json = try JSONValueEncoder().encode(EncodingCorpus.Row(id: 1, title: "Milk", tags: [], note: "n"))
    #expect(json.objectValue?.keys == ["id", "title", "tags", "note"])
    #expect(json.description == #"{"id":1,"title":"Milk","tags":[],"note":"n"}"#)
  }

  @Test func keepsIntegersExactAndFloatsShort() throws {
    let json = try JSONValueEncoder().encode(EncodingCorpus.Scalars())
    #expect(json["int64"] == .int(.min))
    #expect(json["uint64"] == .int(.max))
    #expect(String(decoding: json["float"]!.serialized(), as: UTF8.self) == "0.1")
    #expect(String(decoding: json["wholeDouble"]!.serialized(), as: UTF8.self) == "3")
  }

  @Test func writesDatesAsMillisecondsSinceTheUnixEpoch() throws {
    struct Event: Encodable { var at: Date }
    let json = try JSONValueEncoder().encode(Event(at: Date(timeIntervalSince1970: 1_700_000_000.25)))
    #expect(json == ["at": 1_700_000_000_250])
    #expect(try JSONValueEncoder().encode([Date(timeIntervalSince1970: 0)]) == [0])
  }

  @Test func refusesWhatJSONCannotHold() {
    struct Bad: Encodable { var rows: [Inner] }
    struct Inner: Encodable { var value: Double }
    do {
      _ = try JSONValueEncoder().encode(Bad(rows: [Inner(value: 1), Inner(value: .nan)]))
      Issue.record("NaN encoded")
    } catch EncodingError.invalidValue(_, let context) {
      #expect(context.codingPath.map(\.stringValue) == ["rows", "Index 1", "value"])
    } catch {
      Issue.record("unexpected \(error)")
    }
    #expect(throws: EncodingError.self) { try JSONValueEncoder().encode(["x": Float.infinity]) }
    #expect(throws: EncodingError.self) { try JSONValueEncoder().encode([UInt64.max]) }
    #expect(throws: EncodingError.self) { try JSONValueEncoder().encode(EmptyEncodable()) }
  }

  private struct EmptyEncodable: Encodable {
    func encode(to encoder: any Encoder) throws {}
  }

  @Test func repeatedKeysKeepTheLastValue() throws {
    struct Twice: Encodable {
      enum Keys: String, CodingKey { case a, b }
      func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Keys.self)
        try container.encode(1, forKey: .a)
        try container.encode(2, forKey: .b)
        try container.encode(3, forKey: .a)
      }
    }
    let json = try JSONValueEncoder().encode(Twice())
    #expect(json.objectValue?.keys == ["a", "b"])
    #expect(json["a"] == 3)
    let many = try JSONValueEncoder().encode(
      Dictionary(uniqueKeysWithValues: (0..<100).map { ("k\($0)", $0) }))
    #expect(many.objectValue?.count == 100)
    #expect(many["k42"] == 42)
  }

  @Test func passesJSONThroughAndUserInfoIn() throws {
    struct Message: Encodable {
      var op = "snapshot"
      var state: JSON = ["rows": [1, 2]]
    }
    #expect(try JSONValueEncoder().encode(Message()) == ["op": "snapshot", "state": ["rows": [1, 2]]])
    // JSON also encodes through Foundation, member order and all.
    let viaFoundation = try JSON(parsing: JSONEncoder().encode(Message()))
    #expect(viaFoundation == ["op": "snapshot", "state": ["rows": [1, 2]]])

    struct ReadsUserInfo: Encodable {
      func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(encoder.userInfo[CodingUserInfoKey(rawValue: "viewer")!] as? String ?? "none")
      }
    }
    var encoder = JSONValueEncoder()
    encoder.userInfo[CodingUserInfoKey(rawValue: "viewer")!] = "ada"
    #expect(try encoder.encode(ReadsUserInfo()) == "ada")
  }
}
