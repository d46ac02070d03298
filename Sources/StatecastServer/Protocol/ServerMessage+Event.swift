import Statecast
import StatecastJSON

extension ServerMessage {
  /// The largest event payload a server sends, as JSON; a bigger one is dropped and
  /// logged (an event is a nudge to the page, not a way around the view's diffing).
  static let maxEventPayloadBytes = 65_536
  /// The longest event name.
  static let maxEventNameLength = 64

  /// An `event` frame (`{"op":"event","topic":…,"event":…,"payload":…}`) for a hook
  /// event, or `nil` when its name is empty or too long, or its payload cannot be
  /// encoded or is too large.
  static func event(topic: String, _ event: HookEvent) -> OutboundFrame? {
    guard !event.name.isEmpty, event.name.utf8.count <= maxEventNameLength,
      let payload = try? JSONValueEncoder().encode(event.payload)
    else { return nil }
    var bytes: [UInt8] = []
    bytes.append(contentsOf: "{\"op\":\"event\",\"topic\":".utf8)
    JSON.string(topic).serialize(into: &bytes)
    bytes.append(contentsOf: ",\"event\":".utf8)
    JSON.string(event.name).serialize(into: &bytes)
    bytes.append(contentsOf: ",\"payload\":".utf8)
    let before = bytes.count
    payload.serialize(into: &bytes)
    guard bytes.count - before <= maxEventPayloadBytes else { return nil }
    bytes.append(UInt8(ascii: "}"))
    return OutboundFrame(text: bytes)
  }
}
