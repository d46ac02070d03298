import Foundation

/// Reads a page template into ``HTMLNode``s: a tokenizer of the project's own, limited
/// to what an app's templates are (see docs/FIRST_PAINT.md, "Parsing templates").
///
/// It understands doctypes, comments, start and end tags with quoted, unquoted and bare
/// attributes, void elements, raw-text elements (`script`, `style`, `textarea`,
/// `title`) and `<template>`; an end tag closes up to its open element, and a start tag
/// of `li`, `option`, `p`, `tr`, `td`, `th`, `dt` or `dd` closes an open one of the same
/// kind, as the HTML parser would. It never fails: what it does not understand stays
/// as it was written. It does not rebuild malformed markup the way a browser's parser
/// does (misnested tags, a table's implied `tbody`), which app templates do not need.
struct HTMLTemplateParser {
  private let text: [UInt8]
  private var position = 0

  /// Parses `source` into a list of top-level nodes.
  static func parse(_ source: String) -> [HTMLNode] {
    var parser = HTMLTemplateParser(text: Array(source.utf8))
    return parser.parseAll()
  }

  private init(text: [UInt8]) {
    self.text = text
  }

  private static let selfClosingSiblings: [String: Set<String>] = [
    "li": ["li"], "option": ["option"], "p": ["p"], "tr": ["tr"], "td": ["td", "th"], "th": ["td", "th"],
    "dt": ["dt", "dd"], "dd": ["dt", "dd"],
  ]

  private mutating func parseAll() -> [HTMLNode] {
    // The stack of open elements; index 0 is a stand-in for the document.
    var stack: [HTMLElement] = [HTMLElement(name: "#document")]
    var pendingText = position
    func flushText(upTo end: Int, into stack: inout [HTMLElement]) {
      if end > pendingText {
        stack[stack.count - 1].children.append(
          .markup(String(decoding: text[pendingText..<end], as: UTF8.self)))
      }
    }
    func closeTop(_ stack: inout [HTMLElement]) {
      let element = stack.removeLast()
      stack[stack.count - 1].children.append(.element(element))
    }
    while position < text.count {
      guard text[position] == UInt8(ascii: "<") else {
        position += 1
        continue
      }
      let start = position
      if starts(with: "<!--") {
        flushText(upTo: start, into: &stack)
        let end = find("-->", from: start + 4).map { $0 + 3 } ?? text.count
        stack[stack.count - 1].children.append(.markup(String(decoding: text[start..<end], as: UTF8.self)))
        position = end
        pendingText = end
      } else if starts(with: "<!") || starts(with: "<?") {
        flushText(upTo: start, into: &stack)
        let end = find(">", from: start).map { $0 + 1 } ?? text.count
        stack[stack.count - 1].children.append(.markup(String(decoding: text[start..<end], as: UTF8.self)))
        position = end
        pendingText = end
      } else if starts(with: "</"), position + 2 < text.count, isNameStart(text[position + 2]) {
        flushText(upTo: start, into: &stack)
        position += 2
        let name = readName().lowercased()
        position = (find(">", from: position).map { $0 + 1 }) ?? text.count
        pendingText = position
        if let open = stack.lastIndex(where: { $0.name == name }), open > 0 {
          while stack.count > open { closeTop(&stack) }
        }
      } else if position + 1 < text.count, isNameStart(text[position + 1]) {
        flushText(upTo: start, into: &stack)
        position += 1
        var element = HTMLElement(name: readName().lowercased())
        let selfClosed = readAttributes(into: &element)
        pendingText = position
        if let siblings = Self.selfClosingSiblings[element.name], let last = stack.last,
          siblings.contains(last.name),
          stack.count > 1
        {
          closeTop(&stack)
        }
        if HTMLElement.voidNames.contains(element.name) || selfClosed {
          stack[stack.count - 1].children.append(.element(element))
        } else if HTMLElement.rawTextNames.contains(element.name) {
          let end = findEndTag(element.name, from: position) ?? text.count
          if end > position {
            element.children = [.markup(String(decoding: text[position..<end], as: UTF8.self))]
          }
          position = find(">", from: end).map { $0 + 1 } ?? text.count
          pendingText = position
          stack[stack.count - 1].children.append(.element(element))
        } else {
          stack.append(element)
        }
      } else {
        position += 1
      }
    }
    flushText(upTo: text.count, into: &stack)
    while stack.count > 1 { closeTop(&stack) }
    return stack[0].children
  }

  /// Reads attributes up to the tag's `>`; returns whether the tag ended with `/>`.
  private mutating func readAttributes(into element: inout HTMLElement) -> Bool {
    while position < text.count {
      skipSpaces()
      guard position < text.count else { return false }
      let byte = text[position]
      if byte == UInt8(ascii: ">") {
        position += 1
        return false
      }
      if byte == UInt8(ascii: "/") {
        position += 1
        if position < text.count, text[position] == UInt8(ascii: ">") {
          position += 1
          // `<div/>` is a start tag in HTML: only void elements have no end tag.
          return false
        }
        continue
      }
      let nameStart = position
      while position < text.count, !isSpace(text[position]), text[position] != UInt8(ascii: "="),
        text[position] != UInt8(ascii: ">"), !(text[position] == UInt8(ascii: "/") && position > nameStart)
      {
        position += 1
      }
      let name = String(decoding: text[nameStart..<position], as: UTF8.self).lowercased()
      skipSpaces()
      var value = ""
      if position < text.count, text[position] == UInt8(ascii: "=") {
        position += 1
        skipSpaces()
        if position < text.count, text[position] == UInt8(ascii: "\"") || text[position] == UInt8(ascii: "'")
        {
          let quote = text[position]
          let valueStart = position + 1
          var end = valueStart
          while end < text.count, text[end] != quote { end += 1 }
          value = Self.decodeEntities(String(decoding: text[valueStart..<end], as: UTF8.self))
          position = min(end + 1, text.count)
        } else {
          let valueStart = position
          while position < text.count, !isSpace(text[position]), text[position] != UInt8(ascii: ">") {
            position += 1
          }
          value = Self.decodeEntities(String(decoding: text[valueStart..<position], as: UTF8.self))
        }
      }
      if !name.isEmpty, element.attribute(name) == nil { element.attributes.append((name, value)) }
    }
    return false
  }

  /// Decodes the character references an attribute value may hold.
  static func decodeEntities(_ value: String) -> String {
    guard value.contains("&") else { return value }
    var result = ""
    var rest = Substring(value)
    while let ampersand = rest.firstIndex(of: "&") {
      result += rest[..<ampersand]
      let after = rest[rest.index(after: ampersand)...]
      guard let semicolon = after.prefix(12).firstIndex(of: ";") else {
        result += "&"
        rest = after
        continue
      }
      let name = after[..<semicolon]
      var decoded: String?
      switch name {
      case "amp": decoded = "&"
      case "lt": decoded = "<"
      case "gt": decoded = ">"
      case "quot": decoded = "\""
      case "apos": decoded = "'"
      case "nbsp": decoded = "\u{a0}"
      default:
        if name.hasPrefix("#x") || name.hasPrefix("#X") {
          decoded = UInt32(name.dropFirst(2), radix: 16).flatMap(Unicode.Scalar.init).map { String($0) }
        } else if name.hasPrefix("#") {
          decoded = UInt32(name.dropFirst(1)).flatMap(Unicode.Scalar.init).map { String($0) }
        }
      }
      if let decoded {
        result += decoded
        rest = after[after.index(after: semicolon)...]
      } else {
        result += "&"
        rest = after
      }
    }
    return result + rest
  }

  private mutating func readName() -> String {
    let start = position
    while position < text.count, !isSpace(text[position]), text[position] != UInt8(ascii: ">"),
      text[position] != UInt8(ascii: "/")
    {
      position += 1
    }
    return String(decoding: text[start..<position], as: UTF8.self)
  }

  private mutating func skipSpaces() {
    while position < text.count, isSpace(text[position]) { position += 1 }
  }

  private func isSpace(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x09 || byte == 0x0a || byte == 0x0c || byte == 0x0d
  }

  private func isNameStart(_ byte: UInt8) -> Bool {
    (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z")
  }

  private func starts(with prefix: String) -> Bool {
    let bytes = Array(prefix.utf8)
    guard position + bytes.count <= text.count else { return false }
    for (offset, byte) in bytes.enumerated() where text[position + offset] != byte { return false }
    return true
  }

  private func find(_ needle: String, from start: Int) -> Int? {
    let bytes = Array(needle.utf8)
    var index = start
    while index + bytes.count <= text.count {
      if text[index] == bytes[0], Array(text[index..<index + bytes.count]) == bytes { return index }
      index += 1
    }
    return nil
  }

  /// Where `</name` starts (case-insensitive), from `start`.
  private func findEndTag(_ name: String, from start: Int) -> Int? {
    let bytes = Array(("</" + name).utf8)
    var index = start
    while index + bytes.count <= text.count {
      if text[index] == UInt8(ascii: "<") {
        var matches = true
        for (offset, byte) in bytes.enumerated() where (text[index + offset] | 0x20) != (byte | 0x20) {
          matches = false
          break
        }
        if matches { return index }
      }
      index += 1
    }
    return nil
  }
}
