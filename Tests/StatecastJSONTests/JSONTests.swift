import Testing

@testable import StatecastJSON

@Suite struct JSONTests {
  @Test func numbersCompareByValue() {
    #expect(JSON.int(1) == .double(1.0))
    #expect(JSON.double(-0.0) == .int(0))
    #expect(JSON.int(1) != .double(1.5))
    #expect(JSON.int(1) != .string("1"))
    #expect(JSON.int(Int64(1) << 53 + 1) != .double(Double(Int64(1) << 53)))
    #expect(JSON.int(1).hashValue == JSON.double(1).hashValue)
  }

  @Test func objectsCompareWithoutOrderArraysWithOrder() {
    let a: JSON = ["x": 1, "y": [1, 2]]
    let b: JSON = ["y": [1, 2], "x": 1.0]
    #expect(a == b)
    #expect(a.hashValue == b.hashValue)
    #expect(JSON.array([1, 2]) != .array([2, 1]))
    #expect(JSON.object(["x": 1]) != .object(["x": 1, "y": 2]))
    #expect(JSON.object(["x": 1, "y": 2]) != .object(["x": 1, "z": 2]))
  }

  @Test func objectKeepsInsertionOrderAndReplacesInPlace() {
    var object: JSONObject = ["b": 1, "a": 2]
    object["c"] = 3
    object["b"] = 4
    #expect(object.keys == ["b", "a", "c"])
    #expect(object["b"] == 4)
    object["a"] = nil
    #expect(object.keys == ["b", "c"])
    let repeated = JSONObject(uniqueKeysWithValues: [("k", 1), ("j", 2), ("k", 3)])
    #expect(repeated.keys == ["k", "j"])
    #expect(repeated["k"] == 3)
  }

  @Test func accessors() throws {
    let value: JSON = ["rows": [["id": 7, "title": "Milk"]], "n": 2.0, "ok": true]
    #expect(value["rows"]?[0]?["title"]?.stringValue == "Milk")
    #expect(value["n"]?.int64Value == 2)
    #expect(value["ok"]?.boolValue == true)
    #expect(value["missing"] == nil)
    #expect(value[try JSONPointer("/rows/0/id")] == 7)
    #expect(value[try JSONPointer("/rows/1")] == nil)
    #expect(value.description == #"{"rows":[{"id":7,"title":"Milk"}],"n":2,"ok":true}"#)
  }
}
