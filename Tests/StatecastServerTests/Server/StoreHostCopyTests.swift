import Foundation
import Statecast
import StatecastJSON
import Synchronization
import Testing

@testable import StatecastServer

/// A hosted store's state is changed in place: the host keeps no second reference to it
/// between actions, which would make the reducer copy a large array whole on every
/// change (a 10,000-row table took twice the time per action).
@Suite(.timeLimit(.minutes(1))) struct StoreHostCopyTests {
  /// A state whose storage reports each copy-on-write copy the reducer makes.
  struct Rows: Sendable, Encodable {
    final class Storage: @unchecked Sendable {
      // Sendable: only the store's reducer changes `values`, one action at a time.
      var values: [Int]
      init(_ values: [Int]) { self.values = values }
    }
    /// How many copies the states made from one initial state made, shared by them.
    final class CopyCount: Sendable {
      let value = Atomic<Int>(0)
    }
    let copies: CopyCount
    private var storage: Storage

    init(_ values: [Int], copies: CopyCount) {
      storage = Storage(values)
      self.copies = copies
    }

    var values: [Int] { storage.values }

    mutating func set(_ index: Int, to value: Int) {
      if !isKnownUniquelyReferenced(&storage) {
        copies.value.add(1, ordering: .relaxed)
        storage = Storage(storage.values)
      }
      storage.values[index] = value
    }

    func encode(to encoder: any Encoder) throws {
      var container = encoder.singleValueContainer()
      try container.encode(values)
    }
  }

  enum ClientAction: Codable, Sendable {
    case set(index: Int, value: Int)
  }

  @Test(arguments: [false, true])
  func aChangeIsMadeInPlace(durable: Bool) async {
    let count = Rows.CopyCount()
    let store = Store(
      initialState: Rows(Array(0..<1_000), copies: count),
      reducer: Reducer<Rows, ClientAction> { state, action in
        switch action {
        case .set(let index, let value): state.set(index, to: value)
        }
        return .none
      },
      commit: durable ? { @Sendable _ in } : nil)
    let sink = RecordingSink()
    let connection = ConnectionID(rawValue: 1)
    let host = await StoreHost<Rows, ClientAction, ClientAction, Rows>(
      topic: "rows", store: store, embed: { action, _ in action }, view: { state, _ in state },
      canSend: { _, _, _ in true }, sink: sink, saveState: { try? JSONValueEncoder().encode($0) })
    let request = JoinRequest(
      topic: "rows", pathParameters: [:], params: [:], session: "s1", viewer: .anonymous)
    #expect(await host.attach(request, connection: connection))
    let before = count.value.load(ordering: .relaxed)
    for index in 0..<20 {
      #expect(await host.outcome(["set": ["index": JSON.int(Int64(index)), "value": -1]], from: "s1") == nil)
    }
    let copies = count.value.load(ordering: .relaxed) - before
    // The saved state is read from the store, and is the state the patches made.
    let saved = await host.savedState()
    await store.close()
    // A durable store keeps its committed state beside the working one, so its reducer
    // copies once per action; the host adds no copy of its own.
    #expect(copies == (durable ? 20 : 0))
    #expect(saved?.state[0] == -1 && saved?.state[19] == -1 && saved?.state[20] == 20)
    #expect(sink.take(connection).count == 21)
  }
}
