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
    for scalar in topic.unicodeScalars where isRefused(scalar) {
      return
        "the topic contains U+\(String(scalar.value, radix: 16, uppercase: true)), which is not allowed in a name"
    }
    return nil
  }

  /// Control characters (C0, DEL, C1), bidirectional marks, embeddings, overrides and
  /// isolates, zero-width characters and the byte-order mark.
  static func isRefused(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x00...0x1F, 0x7F...0x9F: true
    case 0x061C, 0x200B...0x200F, 0x202A...0x202E, 0x2060...0x2069, 0xFEFF: true
    default: false
    }
  }
}
