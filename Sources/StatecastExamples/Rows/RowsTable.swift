/// The demo's table of 100,000 rows: made once per process from a fixed seed and shared,
/// read-only, by every session, with one precomputed order per column, so sorting costs a
/// session nothing and filtering keeps only the positions that match.
public final class RowsTable: Sendable {
  /// The table every session of the demo reads.
  public static let shared = RowsTable(count: 100_000)

  /// How many rows the table has.
  public let count: Int
  let names: [String]
  let cities: [String]
  let amounts: [Int]
  /// Each row's name and city, lowercased, as the filter searches them.
  private let searchText: [[UInt8]]
  /// Each column's ascending order, as positions of rows.
  private let orders: [Rows.Column: [Int32]]

  /// A table of `count` rows, the same for the same count.
  public init(count: Int) {
    var random = SplitMix(seed: 0x5EED)
    var names: [String] = []
    var cities: [String] = []
    var amounts: [Int] = []
    names.reserveCapacity(count)
    cities.reserveCapacity(count)
    amounts.reserveCapacity(count)
    for _ in 0..<count {
      names.append(
        Self.firstNames[random.next(below: Self.firstNames.count)] + " "
          + Self.lastNames[random.next(below: Self.lastNames.count)])
      cities.append(Self.cities[random.next(below: Self.cities.count)])
      amounts.append(random.next(below: 1_000_000))
    }
    self.count = count
    self.names = names
    self.cities = cities
    self.amounts = amounts
    self.searchText = (0..<count).map { Array((names[$0] + " " + cities[$0]).lowercased().utf8) }
    let positions = (0..<Int32(count)).map { $0 }
    self.orders = [
      .index: positions,
      .name: positions.sorted { (names[Int($0)], $0) < (names[Int($1)], $1) },
      .city: positions.sorted { (cities[Int($0)], $0) < (cities[Int($1)], $1) },
      .amount: positions.sorted { (amounts[Int($0)], $0) < (amounts[Int($1)], $1) },
    ]
  }

  /// The row at `position` as the page shows it (its `id` is its position: 0 to count-1).
  public func row(_ position: Int) -> Rows.Row {
    Rows.Row(id: position, name: names[position], city: cities[position], amount: amounts[position])
  }

  /// Every row's position in `column`'s ascending order.
  func order(by column: Rows.Column) -> [Int32] {
    orders[column] ?? []
  }

  /// The positions, in `column`'s ascending order, of the rows whose name or city
  /// contains `text` (case-insensitive).
  func matching(_ text: String, by column: Rows.Column) -> [Int32] {
    let needle = Array(text.lowercased().utf8)
    guard !needle.isEmpty else { return order(by: column) }
    return order(by: column).filter { Self.contains(searchText[Int($0)], needle) }
  }

  private static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
    guard haystack.count >= needle.count else { return false }
    return haystack.withUnsafeBufferPointer { hay in
      needle.withUnsafeBufferPointer { pin in
        let first = pin[0]
        var start = 0
        let last = hay.count - pin.count
        while start <= last {
          if hay[start] == first {
            var offset = 1
            while offset < pin.count, hay[start + offset] == pin[offset] { offset += 1 }
            if offset == pin.count { return true }
          }
          start += 1
        }
        return false
      }
    }
  }

  private static let firstNames = [
    "Ada", "Alan", "Barbara", "Brian", "Claude", "Dennis", "Donald", "Edsger", "Frances", "Grace", "Guido",
    "Hedy", "Ivan", "John", "Ken", "Leslie", "Linus", "Margaret", "Niklaus", "Radia", "Robin", "Sophie",
    "Tim", "Vint",
  ]
  private static let lastNames = [
    "Allen", "Backus", "Cerf", "Dijkstra", "Engelbart", "Floyd", "Goldberg", "Hamilton", "Hopper", "Kay",
    "Knuth", "Lamport", "Liskov", "Lovelace", "McCarthy", "Milner", "Perlman", "Ritchie", "Shannon",
    "Sutherland", "Thompson", "Turing", "Wirth", "Wilson",
  ]
  private static let cities = [
    "Amsterdam", "Berlin", "Cairo", "Delhi", "Edinburgh", "Florence", "Geneva", "Helsinki", "Istanbul",
    "Jakarta", "Kyoto", "Lagos", "Lima", "Madrid", "Nairobi", "Oslo", "Paris", "Quito", "Rome", "Seoul",
    "Tokyo", "Utrecht", "Vienna", "Warsaw",
  ]
}

/// A small fixed-seed generator (SplitMix64), so the table is the same on every run.
struct SplitMix {
  private var state: UInt64

  init(seed: UInt64) { state = seed }

  mutating func next(below bound: Int) -> Int {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    z ^= z >> 31
    return Int(z % UInt64(bound))
  }
}
