import Foundation

extension Board {
  /// `text` cut to at most `limit` UTF-16 code units, between characters.
  ///
  /// UTF-16 is what a page's `maxlength` counts, so text typed in a page is never cut;
  /// cutting between characters never leaves half an emoji or a dangling accent.
  ///
  /// ```swift
  /// Board.clipped("ab👍", to: 3)  // "ab": the emoji takes two code units
  /// ```
  static func clipped(_ text: String, to limit: Int) -> String {
    guard text.utf16.count > limit else { return text }
    var length = 0
    var end = text.startIndex
    for character in text {
      length += character.utf16.count
      if length > limit { break }
      end = text.index(after: end)
    }
    return String(text[..<end])
  }

  /// A title as the board keeps it: surrounding whitespace trimmed, then clipped to
  /// ``maxTitleLength``; empty when nothing but whitespace was given.
  static func title(from text: String) -> String {
    clipped(text.trimmingCharacters(in: .whitespacesAndNewlines), to: maxTitleLength)
  }
}
