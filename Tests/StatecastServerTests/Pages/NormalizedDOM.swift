import Foundation

@testable import StatecastServer

/// The DOM of a conformance case as one comparable string, by the rules of
/// `Tests/JS/support/normalize-dom.js`: attributes sorted, classes sorted, whitespace in
/// text collapsed and trimmed, form fields as their values, the runtime's `sc-joining`
/// and the renderer's `data-sc-rendered` left out.
enum NormalizedDOM {
  static func of(_ nodes: [HTMLNode]) -> String {
    nodes.map { normalize($0, selectValue: nil) }.joined()
  }

  private static func normalize(_ node: HTMLNode, selectValue: String?) -> String {
    switch node {
    case .markup(let markup):
      if markup.hasPrefix("<!") { return "" }
      return escape(collapse(HTMLTemplateParser.decodeEntities(markup)))
    case .text(let text): return escape(collapse(text))
    case .element(let element): return normalize(element, selectValue: selectValue)
    }
  }

  private static func normalize(_ element: HTMLElement, selectValue: String?) -> String {
    var attributes: [String: String] = [:]
    for (name, value) in element.attributes where name != "data-sc-rendered" { attributes[name] = value }
    if let classes = attributes["class"] {
      let tokens = classes.split(whereSeparator: \.isWhitespace).map(String.init).filter {
        $0 != "sc-joining"
      }
      .sorted()
      attributes["class"] = tokens.isEmpty ? nil : tokens.joined(separator: " ")
    }
    if element.name == "input" {
      let type = (attributes["type"] ?? "text").lowercased()
      if type != "checkbox", type != "radio", attributes["value"] == "" { attributes["value"] = nil }
    }
    var inner: String?
    if element.name == "textarea" {
      inner = element.children.map { normalize($0, selectValue: nil) }.joined()
    }
    if element.name == "option", let selectValue {
      let value = attributes["value"] ?? collapse(text(of: element))
      attributes["selected"] = value == selectValue ? "" : nil
    }
    var nextSelect = selectValue
    if element.name == "select" { nextSelect = selectedValue(element) }
    let head =
      "<\(element.name)"
      + attributes.sorted { $0.key < $1.key }.map {
        " \($0.key)=\"\(escape($0.value).replacingOccurrences(of: "\"", with: "&quot;"))\""
      }
      .joined() + ">"
    if HTMLElement.voidNames.contains(element.name) { return head }
    let body = inner ?? element.children.map { normalize($0, selectValue: nextSelect) }.joined()
    return head + body + "</\(element.name)>"
  }

  private static func selectedValue(_ element: HTMLElement) -> String {
    var found: String?
    func visit(_ nodes: [HTMLNode]) {
      for case .element(let child) in nodes where found == nil {
        if child.name == "option", child.attribute("selected") != nil {
          found = child.attribute("value") ?? collapse(text(of: child))
        } else if child.name == "optgroup" {
          visit(child.children)
        }
      }
    }
    visit(element.children)
    return found ?? ""
  }

  private static func text(of element: HTMLElement) -> String {
    element.children.map { node -> String in
      switch node {
      case .markup(let markup): HTMLTemplateParser.decodeEntities(markup)
      case .text(let text): text
      case .element(let child): text(of: child)
      }
    }.joined()
  }

  private static func collapse(_ text: String) -> String {
    text.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" || $0 == "\r" || $0 == "\u{0C}" })
      .joined(separator: " ")
  }

  private static func escape(_ text: String) -> String {
    text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
      .replacingOccurrences(of: ">", with: "&gt;")
  }
}
