import Foundation

/// Writes ``HTMLNode``s back as markup: template text as it was written, rendered text
/// and every attribute value escaped for its context (``HTMLEscaping``).
enum HTMLSerializer {
  static func serialize(_ nodes: [HTMLNode]) -> String {
    var output = ""
    output.reserveCapacity(4096)
    for node in nodes { write(node, into: &output) }
    return output
  }

  static func write(_ node: HTMLNode, into output: inout String) {
    switch node {
    case .markup(let markup): output += markup
    case .text(let text): output += HTMLEscaping.text(text)
    case .element(let element): write(element, into: &output)
    }
  }

  static func write(_ element: HTMLElement, into output: inout String) {
    output += "<"
    output += element.name
    for (name, value) in element.attributes {
      output += " "
      output += name
      if !value.isEmpty {
        output += "=\""
        output += HTMLEscaping.attribute(value)
        output += "\""
      }
    }
    output += ">"
    if HTMLElement.voidNames.contains(element.name) { return }
    for child in element.children { write(child, into: &output) }
    output += "</"
    output += element.name
    output += ">"
  }
}
