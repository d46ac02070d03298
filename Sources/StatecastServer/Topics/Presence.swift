import Statecast
import StatecastJSON

/// Who is in a shared topic, as every member sees it under `/presence`: one entry per
/// viewer (however many tabs), in the order they joined.
///
/// ```json
/// [{"id": "v-ada", "name": "Ada", "tabs": 2, "online": true, "meta": {"editing": "item-3"}}]
/// ```
///
/// `online` is false while every tab of the viewer waits for a reconnect (within the
/// session grace period); `meta` is what the viewer published last, from any tab.
///
/// Bounded, because every member receives all of it: at most ``maxOfflineEntries``
/// viewers who are only waiting for a reconnect are listed (the latest to join), and at
/// most ``maxEntries`` in all. Without it, sockets that join and drop (each a guest kept
/// for the grace period) grew every newcomer's snapshot by an entry each.
enum Presence {
  /// The largest `meta` a member may publish, serialized.
  static let maxMetaBytes = 1_024
  /// The most viewers listed while all their tabs wait for a reconnect.
  static let maxOfflineEntries = 16
  /// The most viewers listed.
  static let maxEntries = 256
  /// The most viewers listed whose first tab in the topic joined from one peer address
  /// (guests get a viewer per socket: one address could otherwise fill the list).
  static let maxEntriesPerAddress = 32
  /// The shortest time between two presence patches caused by members' `meta`: a burst
  /// of presence messages reaches the other members as one patch per interval, with
  /// each member's latest `meta`.
  static let publishInterval = Duration.milliseconds(100)

  static func entries(
    _ members: [(
      viewer: Viewer, online: Bool, meta: JSON, metaSequence: Int, joinOrder: Int, address: String
    )]
  ) -> JSON {
    var order: [String] = []
    var byViewer:
      [String: (name: String, tabs: Int, online: Bool, meta: JSON, metaSequence: Int, first: Int)] = [:]
    var addressOf: [String: String] = [:]
    for member in members.sorted(by: { $0.joinOrder < $1.joinOrder }) {
      let id = member.viewer.id
      if var entry = byViewer[id] {
        entry.tabs += 1
        entry.online = entry.online || member.online
        if member.metaSequence > entry.metaSequence {
          (entry.meta, entry.metaSequence) = (member.meta, member.metaSequence)
        }
        byViewer[id] = entry
      } else {
        order.append(id)
        addressOf[id] = member.address
        byViewer[id] = (
          member.viewer.name, 1, member.online, member.meta, member.metaSequence, member.joinOrder
        )
      }
    }
    let offline = order.filter { !byViewer[$0]!.online }
    if offline.count > maxOfflineEntries {
      let dropped = Set(offline.dropLast(maxOfflineEntries))
      order.removeAll { dropped.contains($0) }
    }
    var perAddress: [String: Int] = [:]
    order.removeAll { id in
      guard let address = addressOf[id], !address.isEmpty else { return false }
      perAddress[address, default: 0] += 1
      return perAddress[address]! > maxEntriesPerAddress
    }
    return .array(
      order.prefix(maxEntries).map { id in
        let entry = byViewer[id]!
        return .object([
          "id": .string(id), "name": .string(entry.name), "tabs": .int(Int64(entry.tabs)),
          "online": .bool(entry.online), "meta": entry.meta,
        ])
      })
  }
}

extension JSONPatch {
  /// The same operations, applied under the member `key` of the document.
  func prefixed(by key: String) -> JSONPatch {
    func moved(_ pointer: JSONPointer) -> JSONPointer { JSONPointer(tokens: [key] + pointer.tokens) }
    return JSONPatch(
      operations.map { operation in
        switch operation {
        case .add(let path, let value): .add(path: moved(path), value: value)
        case .remove(let path): .remove(path: moved(path))
        case .replace(let path, let value): .replace(path: moved(path), value: value)
        case .move(let from, let path): .move(from: moved(from), path: moved(path))
        case .copy(let from, let path): .copy(from: moved(from), path: moved(path))
        case .test(let path, let value): .test(path: moved(path), value: value)
        }
      })
  }
}
