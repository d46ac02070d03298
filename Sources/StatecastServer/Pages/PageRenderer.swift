import Foundation
import StatecastJSON

/// A topic a page binds at its top level, as the page's address names it.
struct PageTopic: Sendable, Equatable {
  var name: String
  /// The join's `params` (from `data-sc-params`, placeholders filled), if any.
  var params: JSON?
}

/// One topic's state as a page was rendered with it.
struct RenderedTopic: Sendable {
  var revision: Int
  var state: JSON
}

/// Renders a page template's first state: every top-level `data-sc-topic` element
/// whose topic has a state is rendered with it (``BindingRenderer``), and the page
/// carries what its runtime needs to resume the session the request opened (its id,
/// each topic's revision and state) in `<script type="application/json"
/// id="statecast-page">`.
enum PageRenderer {
  /// The id of the script element holding the rendered session.
  static let pageDataID = "statecast-page"

  /// The topics the page binds at its top level (nested topic elements are the
  /// runtime's to join), once each, in document order.
  static func topics(in nodes: [HTMLNode], at location: PageLocation) -> [PageTopic] {
    var found: [PageTopic] = []
    func visit(_ nodes: [HTMLNode]) {
      for node in nodes {
        guard case .element(let element) = node, element.name != "template" else { continue }
        if let template = element.attribute("data-sc-topic") {
          if let topic = topic(of: element, template: template, at: location),
            !found.contains(where: { $0.name == topic.name })
          {
            found.append(topic)
          }
        } else {
          visit(element.children)
        }
      }
    }
    visit(nodes)
    return found
  }

  private static func topic(of element: HTMLElement, template: String, at location: PageLocation)
    -> PageTopic?
  {
    guard let name = location.topicName(template), !name.isEmpty else { return nil }
    let params = element.attribute("data-sc-params").flatMap { source in
      source.trimmingCharacters(in: .whitespaces).isEmpty ? nil : location.params(source)
    }
    return PageTopic(name: name, params: params)
  }

  /// The page as markup, with each topic of `states` rendered and `pageData` (the
  /// session to resume, as JSON) at the end of the body.
  static func render(
    _ nodes: [HTMLNode], at location: PageLocation, states: [String: RenderedTopic], pageData: JSON?
  ) -> String {
    var rendered = nodes.map { renderTopics($0, at: location, states: states) }
    if containsForm(rendered) { hideFormMessages(&rendered, inForm: false) }
    if let pageData {
      let script = HTMLNode.element(
        HTMLElement(
          name: "script", attributes: [("type", "application/json"), ("id", pageDataID)],
          children: [.markup(HTMLEscaping.scriptJSON(String(decoding: pageData.serialized(), as: UTF8.self)))]
        ))
      if !appendToBody(&rendered, script) { rendered.append(script) }
    }
    return HTMLSerializer.serialize(rendered)
  }

  private static func renderTopics(
    _ node: HTMLNode, at location: PageLocation, states: [String: RenderedTopic]
  )
    -> HTMLNode
  {
    guard case .element(var element) = node, element.name != "template" else { return node }
    if let template = element.attribute("data-sc-topic") {
      if let topic = topic(of: element, template: template, at: location), let state = states[topic.name] {
        BindingRenderer.renderTopic(&element, state: state.state)
      }
      return .element(element)
    }
    element.children = element.children.map { renderTopics($0, at: location, states: states) }
    return .element(element)
  }

  /// Hides every `data-sc-error-for` message of a `form[data-sc-form]`: at the first
  /// paint no field has been left and the form was not submitted, and that is when the
  /// runtime hides a message too (`forms.js`). Rendered visible, a form's errors would
  /// show on its untouched fields until the runtime had bound the page, and for good
  /// with scripts off.
  private static func hideFormMessages(_ nodes: inout [HTMLNode], inForm: Bool) {
    // Rewrites the tree (each element on the way is copied): only pages with a form.
    for index in nodes.indices {
      guard case .element(var element) = nodes[index], element.name != "template" else { continue }
      let inForm = inForm || (element.name == "form" && element.attribute("data-sc-form") != nil)
      if inForm, element.attribute("data-sc-error-for") != nil { element.setAttribute("hidden", "") }
      hideFormMessages(&element.children, inForm: inForm)
      nodes[index] = .element(element)
    }
  }

  /// Whether the page has a `form[data-sc-form]`: a read-only walk, so that a page
  /// without one is not copied element by element to hide nothing.
  private static func containsForm(_ nodes: [HTMLNode]) -> Bool {
    nodes.contains { node in
      guard case .element(let element) = node, element.name != "template" else { return false }
      let isForm = element.name == "form" && element.attribute("data-sc-form") != nil
      return isForm || containsForm(element.children)
    }
  }

  private static func appendToBody(_ nodes: inout [HTMLNode], _ script: HTMLNode) -> Bool {
    for index in nodes.indices {
      guard case .element(var element) = nodes[index] else { continue }
      if element.name == "body" {
        element.children.append(script)
        nodes[index] = .element(element)
        return true
      }
      if appendToBody(&element.children, script) {
        nodes[index] = .element(element)
        return true
      }
    }
    return false
  }
}
