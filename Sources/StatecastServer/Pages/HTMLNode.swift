import Foundation

/// One node of a page template, as ``HTMLTemplateParser`` reads it.
///
/// Text keeps the markup it was written as (entities and all), so that what no binding
/// touches is sent exactly as the author wrote it; only what is rendered from state is
/// escaped here (``HTMLEscaping``). Attribute values are decoded, because bindings read
/// them (`data-sc-params='{"a":"$x"}'`), and escaped again when written.
package enum HTMLNode: Sendable, Equatable {
  /// Text as written in the template: already markup, sent as it is.
  case markup(String)
  /// Text rendered from state: escaped when written.
  case text(String)
  case element(HTMLElement)
}

/// An element of a page template: its name (lower case), attributes in order, children.
package struct HTMLElement: Sendable, Equatable {
  var name: String
  var attributes: [(name: String, value: String)]
  var children: [HTMLNode]

  init(name: String, attributes: [(name: String, value: String)] = [], children: [HTMLNode] = []) {
    self.name = name
    self.attributes = attributes
    self.children = children
  }

  package static func == (lhs: HTMLElement, rhs: HTMLElement) -> Bool {
    lhs.name == rhs.name && lhs.children == rhs.children
      && lhs.attributes.map(\.name) == rhs.attributes.map(\.name)
      && lhs.attributes.map(\.value) == rhs.attributes.map(\.value)
  }

  /// The value of the attribute `name`, or `nil`.
  func attribute(_ name: String) -> String? {
    attributes.first { $0.name == name }?.value
  }

  /// Sets (or adds) the attribute `name`.
  mutating func setAttribute(_ name: String, _ value: String) {
    if let index = attributes.firstIndex(where: { $0.name == name }) {
      attributes[index].value = value
    } else {
      attributes.append((name, value))
    }
  }

  /// Removes the attribute `name`, if present.
  mutating func removeAttribute(_ name: String) {
    attributes.removeAll { $0.name == name }
  }

  /// Turns the class `name` on or off, keeping the other classes as written.
  mutating func setClass(_ name: String, _ on: Bool) {
    var classes = (attribute("class") ?? "").split(whereSeparator: \.isWhitespace).map(String.init)
    let has = classes.contains(name)
    if on == has { return }
    if on { classes.append(name) } else { classes.removeAll { $0 == name } }
    if classes.isEmpty {
      removeAttribute("class")
    } else {
      setAttribute("class", classes.joined(separator: " "))
    }
  }

  /// Elements without an end tag.
  static let voidNames: Set<String> = [
    "area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr",
  ]
  /// Elements whose content is text up to their own end tag, never markup.
  static let rawTextNames: Set<String> = ["script", "style", "textarea", "title"]
}
