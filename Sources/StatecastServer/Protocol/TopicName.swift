/// What a topic name may be: at most ``maxBytes`` bytes of UTF-8, with no control,
/// bidirectional-formatting or invisible characters.
///
/// Why it exists: a topic names a room, and a durable room's name is stored, logged and
/// shown. A visitor who could join names of 64 KB filled the disk and the logs with
/// them; a name with a right-to-left override or a zero-width character looks like
/// another room's. Names a page writes (`counter`, `board/team-42`) are far inside.
///
///     TopicName.problem(with: "board/team-42")                       // nil
///     TopicName.problem(with: String(repeating: "a", count: 1_000))  // "the topic is over 200 bytes"
enum TopicName {
  /// The longest topic name, in bytes of UTF-8.
  static let maxBytes = 200

  /// Why `topic` is refused, or `nil` when it is a usable name.
  static func problem(with topic: String) -> String? {
    if topic.utf8.count > maxBytes { return "the topic is over \(maxBytes) bytes" }
    for scalar in topic.unicodeScalars where DisguisingCharacters.contains(scalar) {
      return
        "the topic contains U+\(String(scalar.value, radix: 16, uppercase: true)), which is not allowed in a name"
    }
    return nil
  }
}
