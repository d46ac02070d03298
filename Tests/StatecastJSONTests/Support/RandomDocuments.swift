@testable import StatecastJSON

/// Random JSON documents and random edits of them, for property tests and the Python
/// cross-check: edits produce the related pairs that real views go through (a field
/// changed, a row inserted, moved or removed, keys added), not only unrelated pairs.
struct RandomDocuments {
  var generator: SeededGenerator

  init(seed: UInt64) {
    generator = SeededGenerator(seed: seed)
  }

  private mutating func chance(_ percent: Int) -> Bool {
    Int.random(in: 0..<100, using: &generator) < percent
  }

  mutating func key() -> String {
    let keys = ["a", "b", "id", "title", "a/b", "m~n", "~1", "", " ", "0", "-", "é", "🍓", "k\"l"]
    return keys.randomElement(using: &generator)!
  }

  mutating func scalar() -> JSON {
    switch Int.random(in: 0..<7, using: &generator) {
    case 0: return .null
    case 1: return .bool(chance(50))
    case 2: return .int(Int64.random(in: -5...5, using: &generator))
    case 3: return .int(Int64.random(in: Int64.min...Int64.max, using: &generator))
    case 4: return .double(Double(Int.random(in: -1000...1000, using: &generator)) / 8)
    case 5:
      return .string(
        ["", "x", "milk", "line\nbreak", "quote\"", "tab\t", "😀", "\u{1}"].randomElement(using: &generator)!)
    default: return .string(String(Int.random(in: 0..<50, using: &generator)))
    }
  }

  mutating func value(depth: Int = 0) -> JSON {
    guard depth < 4, chance(60) else { return scalar() }
    if chance(50) {
      if chance(40) { return .array(rows(count: Int.random(in: 0..<6, using: &generator), depth: depth + 1)) }
      return .array((0..<Int.random(in: 0..<5, using: &generator)).map { _ in value(depth: depth + 1) })
    }
    var object = JSONObject()
    for _ in 0..<Int.random(in: 0..<5, using: &generator) { object[key()] = value(depth: depth + 1) }
    return .object(object)
  }

  /// Objects with unique `"id"`s, the shape the diff matches by identity.
  mutating func rows(count: Int, depth: Int) -> [JSON] {
    var ids = Set<Int64>()
    var rows: [JSON] = []
    while rows.count < count {
      let id = Int64.random(in: 0..<40, using: &generator)
      guard ids.insert(id).inserted else { continue }
      rows.append(row(id: id, depth: depth))
    }
    return rows
  }

  mutating func row(id: Int64, depth: Int) -> JSON {
    var object: JSONObject = ["id": chance(20) ? .string("r\(id)") : .int(id)]
    for _ in 0..<Int.random(in: 0..<3, using: &generator) { object[key()] = value(depth: depth + 1) }
    object["id"] = object["id"] ?? .int(id)
    return .object(object)
  }

  /// `document` with a few random edits.
  mutating func edited(_ document: JSON, depth: Int = 0) -> JSON {
    switch document {
    case .object(var object):
      for _ in 0..<Int.random(in: 0...2, using: &generator) {
        switch Int.random(in: 0..<4, using: &generator) {
        case 0: object[key()] = value(depth: depth + 1)
        case 1: if let victim = object.keys.randomElement(using: &generator) { object[victim] = nil }
        default:
          if let target = object.keys.randomElement(using: &generator) {
            object[target] = edited(object[target]!, depth: depth + 1)
          }
        }
      }
      return .object(object)
    case .array(var array):
      for _ in 0..<Int.random(in: 0...2, using: &generator) {
        switch Int.random(in: 0..<5, using: &generator) {
        case 0: array.insert(value(depth: depth + 1), at: Int.random(in: 0...array.count, using: &generator))
        case 1: if !array.isEmpty { array.remove(at: Int.random(in: 0..<array.count, using: &generator)) }
        case 2:
          if !array.isEmpty {
            let moved = array.remove(at: Int.random(in: 0..<array.count, using: &generator))
            array.insert(moved, at: Int.random(in: 0...array.count, using: &generator))
          }
        default:
          if !array.isEmpty {
            let index = Int.random(in: 0..<array.count, using: &generator)
            array[index] = edited(array[index], depth: depth + 1)
          }
        }
      }
      return .array(array)
    default:
      return chance(50) ? scalar() : value(depth: depth)
    }
  }

  /// A pair of documents: unrelated, or a document and an edit of it.
  mutating func pair() -> (JSON, JSON) {
    let old = value()
    if chance(15) { return (old, value()) }
    return (old, edited(old))
  }
}
