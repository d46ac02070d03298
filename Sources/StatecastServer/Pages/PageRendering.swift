package import StatecastJSON

/// The page renderer's entry points for the benchmarks (`statecast-bench pages`): parse
/// a template, write it back, render it with one topic's state.
package enum PageRendering {
  /// Parses a page template.
  package static func parse(_ source: String) -> [HTMLNode] {
    HTMLTemplateParser.parse(source)
  }

  /// Writes a parsed template back unchanged.
  package static func serialize(_ nodes: [HTMLNode]) -> String {
    HTMLSerializer.serialize(nodes)
  }

  /// Renders a parsed template requested at `target` with `topic` at `state`, carrying a
  /// session as a page does.
  package static func render(_ nodes: [HTMLNode], target: String, topic: String, state: JSON) -> String {
    let location = PageLocation(target: target)
    let rendered = RenderedTopic(revision: 1, state: state)
    return PageRenderer.render(
      nodes, at: location, states: [topic: rendered],
      pageData: PageService.pageData(
        session: "0123456789abcdef0123456789abcdef", topics: [PageTopic(name: topic, params: nil)],
        states: [topic: rendered]))
  }
}
