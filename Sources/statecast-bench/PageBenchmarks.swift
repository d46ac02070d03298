import Foundation
import StatecastJSON
import StatecastServer

/// The first paint's server side: a page template rendered with its topics' state (every
/// binding evaluated, list rows rendered, the page's session as JSON), against the floor
/// of writing the same parsed template back unchanged, and the one-time parse of the
/// template. A list of 10 and of 200 rows.
func runPageBenchmarks() async throws {
  var rows: [BenchRow] = []
  for count in isQuickRun ? [10] : [10, 200] {
    let template = PageBenchTemplate.markup
    let state = PageBenchTemplate.state(rows: count)
    let iterations = isQuickRun ? 3 : 400
    let parse = measurePage(iterations) { _ = PageRendering.parse(template) }
    let nodes = PageRendering.parse(template)
    let floor = measurePage(iterations) { _ = PageRendering.serialize(nodes) }
    let render = measurePage(iterations) {
      _ = PageRendering.render(nodes, target: "/bench.html", topic: "todos", state: state)
    }
    let bytes = PageRendering.render(nodes, target: "/bench.html", topic: "todos", state: state).utf8.count
    rows.append(
      BenchRow(
        name: "\(count) rows",
        columns: [
          ("parse (once)", formatDuration(nanoseconds: parse)),
          ("write unchanged (floor)", formatDuration(nanoseconds: floor)),
          ("render with state", formatDuration(nanoseconds: render)),
          ("× floor", String(format: "%.1f", render / floor)),
          ("page", "\(bytes / 1_024) KiB"),
        ]))
  }
  printTable("pages: a template rendered with its state (median)", rows)
}

private func measurePage(_ iterations: Int, _ body: () -> Void) -> Double {
  var samples: [Double] = []
  for _ in 0..<iterations {
    let start = nowNanoseconds()
    body()
    samples.append(Double(nowNanoseconds() - start))
  }
  return median(samples)
}

/// A page like the demos': a heading, a few bound values and a keyed list of rows with
/// text, classes and a form field each.
private enum PageBenchTemplate {
  static let markup = """
    <!doctype html>
    <html lang="en"><head><meta charset="utf-8"><title>Todos</title>
    <script src="/statecast/early.js"></script><link rel="stylesheet" href="/demo.css"></head>
    <body><main class="demo"><h1>Todos</h1>
    <section data-sc-topic="todos">
      <p><span data-sc-text="done"></span> of <span data-sc-text="items.length"></span> done</p>
      <p hidden data-sc-show="items.length == 0">Nothing to do.</p>
      <ul data-sc-each="items" data-sc-key="id">
        <template>
          <li data-sc-class="done: done; mine: mine">
            <input type="checkbox" data-sc-model="done">
            <span data-sc-text="title"></span>
            <small data-sc-text="$root.owner"></small>
            <a data-sc-attr="href: link; title: title">open</a>
          </li>
        </template>
      </ul>
    </section></main></body></html>
    """

  static func state(rows: Int) -> JSON {
    let items: [JSON] = (0..<rows).map { index in
      [
        "id": .string("item-\(index)"), "title": .string("Item <\(index)> & more"),
        "done": .bool(index % 3 == 0),
        "mine": .bool(index % 2 == 0), "link": .string("/items/\(index)?x=1&y=2"),
      ]
    }
    return ["owner": "Ada", "done": .int(Int64(rows / 3)), "items": .array(items)]
  }
}
