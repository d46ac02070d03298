/// Characters that change how a name looks without being seen: controls (C0, DEL, C1),
/// bidirectional marks, embeddings, overrides and isolates, zero-width characters and
/// the byte-order mark.
///
/// Why it exists: a display name with a right-to-left override shows its text reversed
/// and can swallow what follows it in a list; a zero-width character makes two names
/// that look alike differ. Names that people see (display names, room names) leave
/// them out.
///
///     DisguisingCharacters.removed(from: "\u{202E}Ada")   // "Ada"
public enum DisguisingCharacters {
  /// Whether `scalar` is one of them.
  public static func contains(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x00...0x1F, 0x7F...0x9F: true
    case 0x061C, 0x200B...0x200F, 0x202A...0x202E, 0x2060...0x2069, 0xFEFF: true
    default: false
    }
  }

  /// `text` without them.
  public static func removed(from text: String) -> String {
    var scalars = String.UnicodeScalarView()
    scalars.append(contentsOf: text.unicodeScalars.filter { !contains($0) })
    return String(scalars)
  }
}
