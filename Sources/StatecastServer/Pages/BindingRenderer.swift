import Foundation
import StatecastJSON

/// Renders the `data-sc-*` bindings of one topic element with the topic's state, the
/// way the browser runtime would show them once that state arrived: text, attributes,
/// classes, shown and hidden elements, keyed lists, form fields' values.
///
/// What only the browser can do is left for it: `data-sc-render` (the page's own
/// function), `data-sc-location`, event bindings, nested topic elements (the runtime
/// joins them). A binding the runtime would refuse (unparsable, an event-handler
/// attribute) is left as written, as the runtime leaves it. Rows rendered for a
/// `data-sc-each` carry `data-sc-rendered`, so that the runtime binds them as its rows
/// when it binds the list (or replaces them, should they not be one per item).
struct BindingRenderer {
  /// The marker on each top-level element of a rendered list row.
  static let renderedRowAttribute = "data-sc-rendered"

  /// Renders `element` (the topic's root) with `state`, and marks it ready (its cloaked
  /// descendants then show).
  static func renderTopic(_ element: inout HTMLElement, state: JSON) {
    let scope = BindingExpression.Scope(value: state, root: state)
    render(&element, scope: scope, isTopicRoot: true)
    element.setClass("sc-joining", false)
    element.setClass("sc-ready", true)
  }

  private static func render(_ element: inout HTMLElement, scope: BindingExpression.Scope, isTopicRoot: Bool)
  {
    if !isTopicRoot, element.attribute("data-sc-topic") != nil { return }
    if let list = element.attribute("data-sc-each") {
      renderList(&element, source: list, scope: scope)
    } else if element.name != "template" {
      for index in element.children.indices {
        guard case .element(var child) = element.children[index] else { continue }
        render(&child, scope: scope, isTopicRoot: false)
        element.children[index] = .element(child)
      }
    }
    if let model = element.attribute("data-sc-model"), let expression = BindingExpression.cached(model) {
      writeControl(&element, expression.evaluate(scope), property: nil)
    }
    for (name, source) in element.attributes {
      switch name {
      case "data-sc-text":
        guard let expression = BindingExpression.cached(source) else { continue }
        element.children = [.text(BindingExpression.displayText(expression.evaluate(scope)))]
      case "data-sc-attr":
        renderAttributes(&element, source: source, scope: scope)
      case "data-sc-class":
        guard let pairs = BindingExpression.pairs(source) else { continue }
        for (className, expression) in pairs {
          element.setClass(className, BindingExpression.truthy(expression.evaluate(scope)))
        }
      case "data-sc-show", "data-sc-hide":
        guard let expression = BindingExpression.cached(source) else { continue }
        let hidden = BindingExpression.truthy(expression.evaluate(scope)) != (name == "data-sc-show")
        if hidden { element.setAttribute("hidden", "") } else { element.removeAttribute("hidden") }
      default: continue
      }
    }
  }

  private static func renderAttributes(
    _ element: inout HTMLElement, source: String, scope: BindingExpression.Scope
  ) {
    guard let pairs = BindingExpression.pairs(source) else { return }
    let lowered = pairs.map { (name: $0.name.lowercased(), expression: $0.expression) }
    // The runtime refuses the whole binding when one name may not be written.
    guard lowered.allSatisfy({ HTMLEscaping.isWritableAttribute($0.name) }) else { return }
    for (name, expression) in lowered {
      let value = expression.evaluate(scope)
      if name == "value" || name == "checked", ["input", "textarea", "select"].contains(element.name) {
        writeControl(&element, value, property: name)
        continue
      }
      switch value {
      case .bool(true)?: element.setAttribute(name, "")
      case nil, .null?, .bool(false)?: element.removeAttribute(name)
      case let value?:
        let text = BindingExpression.displayText(value)
        if HTMLEscaping.isSafeAttributeValue(name, text) {
          element.setAttribute(name, text)
        } else {
          element.removeAttribute(name)
        }
      }
    }
  }

  /// A form control showing `value`, as the runtime's `writeControl` sets its
  /// properties: here the attributes that set them when the page loads.
  private static func writeControl(_ element: inout HTMLElement, _ value: JSON?, property: String?) {
    let type = (element.attribute("type") ?? "").lowercased()
    if element.name == "input", property == "checked" || (property == nil && type == "checkbox") {
      setFlag(&element, "checked", BindingExpression.truthy(value))
      return
    }
    if element.name == "input", property == nil, type == "radio" {
      setFlag(
        &element, "checked", BindingExpression.displayText(value) == (element.attribute("value") ?? "on"))
      return
    }
    let text = BindingExpression.displayText(value)
    switch element.name {
    case "textarea": element.children = [.text(text)]
    case "select": element.children = element.children.map { select($0, value: text) }
    case "input": element.setAttribute("value", text)
    default: break
    }
  }

  /// Marks the options whose value is `value` selected, and no other.
  private static func select(_ node: HTMLNode, value: String) -> HTMLNode {
    guard case .element(var element) = node else { return node }
    if element.name == "option" {
      let optionValue = element.attribute("value") ?? optionText(element)
      setFlag(&element, "selected", optionValue == value)
    } else if element.name == "optgroup" {
      element.children = element.children.map { select($0, value: value) }
    }
    return .element(element)
  }

  private static func optionText(_ element: HTMLElement) -> String {
    element.children.map { node -> String in
      switch node {
      case .markup(let markup): HTMLTemplateParser.decodeEntities(markup)
      case .text(let text): text
      case .element(let child): optionText(child)
      }
    }.joined().split(whereSeparator: \.isWhitespace).joined(separator: " ")
  }

  private static func setFlag(_ element: inout HTMLElement, _ name: String, _ on: Bool) {
    if on { element.setAttribute(name, "") } else { element.removeAttribute(name) }
  }

  /// `data-sc-each`: the template stays, and one rendered copy of it per item follows it.
  private static func renderList(_ element: inout HTMLElement, source: String, scope: BindingExpression.Scope)
  {
    guard let expression = BindingExpression.cached(source),
      let templateIndex = element.children.firstIndex(where: {
        if case .element(let child) = $0 { child.name == "template" } else { false }
      }),
      case .element(let template) = element.children[templateIndex]
    else { return }
    let items = expression.evaluate(scope)?.arrayValue ?? []
    let keyExpression = element.attribute("data-sc-key").flatMap(BindingExpression.cached)
    var rows: [HTMLNode] = []
    var seen: Set<String> = []
    for (index, item) in items.enumerated() {
      var key = Self.key(of: item, at: index, root: scope.root, keyExpression: keyExpression)
      if seen.contains(key) { key += "#\(index)" }
      seen.insert(key)
      let rowScope = BindingExpression.Scope(value: item, root: scope.root, index: index, key: key)
      for node in template.children {
        guard case .element(var row) = node else { continue }
        render(&row, scope: rowScope, isTopicRoot: false)
        row.setAttribute(renderedRowAttribute, "")
        rows.append(.element(row))
      }
    }
    element.children.insert(contentsOf: rows, at: templateIndex + 1)
  }

  /// A row's key, as the runtime's `keyOf`: `data-sc-key`, else the item's `id`, else
  /// its position.
  private static func key(of item: JSON, at index: Int, root: JSON?, keyExpression: BindingExpression?)
    -> String
  {
    if let keyExpression {
      return BindingExpression.displayText(
        keyExpression.evaluate(.init(value: item, root: root, index: index)))
    }
    switch item["id"] {
    case .string(let id)?: return id
    case .int, .double: return BindingExpression.displayText(item["id"])
    default: return String(index)
    }
  }
}
