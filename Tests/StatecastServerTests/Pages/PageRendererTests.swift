import Foundation
import StatecastJSON
import Testing

@testable import StatecastServer

/// Page templates read once and rendered with state: markup the bindings do not touch
/// is sent as written, everything from state is escaped for where it lands, and the page
/// carries its session as JSON that no string can break out of.
@Suite struct PageRendererTests {
  let location = PageLocation(target: "/board.html?room=team")

  private func render(_ markup: String, _ state: JSON, pageData: JSON? = nil) -> String {
    PageRenderer.render(
      HTMLTemplateParser.parse(markup), at: PageLocation(target: "/"),
      states: ["t": RenderedTopic(revision: 3, state: state)], pageData: pageData)
  }

  @Test func untouchedMarkupIsSentAsWritten() {
    let page = """
      <!doctype html>
      <html lang="en"><head><meta charset="utf-8"><title>A &amp; B</title>
      <script>if (a < b && c > d) { document.write("</div>") }</script>
      <style>p > b { color: red }</style></head>
      <body><!-- a <comment> --><p class=x>Fish &amp; chips<br></p><textarea><b>raw</b></textarea></body></html>
      """
    #expect(
      HTMLSerializer.serialize(HTMLTemplateParser.parse(page))
        == page.replacingOccurrences(of: "class=x", with: "class=\"x\""))
  }

  @Test func hostileTextIsEscapedInTextAttributesAndFields() {
    let hostile = "\"><script>alert(1)</script>&amp;'"
    let html = render(
      """
      <div data-sc-topic="t"><p data-sc-text="s"></p><a data-sc-attr="title: s">x</a><input data-sc-model="s"><textarea data-sc-model="s"></textarea></div>
      """, ["s": .string(hostile)])
    #expect(!html.contains("<script>alert(1)"))
    #expect(html.contains("<p data-sc-text=\"s\">\"&gt;&lt;script&gt;alert(1)&lt;/script&gt;&amp;amp;'</p>"))
    #expect(html.contains("title=\"&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;&amp;amp;'\""))
    #expect(html.contains("value=\"&quot;&gt;&lt;script&gt;"))
    #expect(
      html.contains(
        "<textarea data-sc-model=\"s\">\"&gt;&lt;script&gt;alert(1)&lt;/script&gt;&amp;amp;'</textarea>"))
  }

  @Test func aFormsMessagesAreHiddenUntilItsFieldsAreLeft() {
    let html = render(
      """
      <div data-sc-topic="t"><form data-sc-form><input name="name" data-sc-model="name">\
      <p data-sc-error-for="name" data-sc-text="errors.name"></p></form>\
      <p data-sc-error-for="name" data-sc-text="errors.name"></p></div>
      """, ["name": "", "errors": ["name": "Tell us your name"]])
    let message = #"<p data-sc-error-for="name" data-sc-text="errors.name""#
    #expect(html.contains(message + #" hidden>Tell us your name</p></form>"#))
    #expect(
      html.contains("</form>" + message + ">Tell us your name</p>"),
      "outside a data-sc-form form the runtime never hides a message, so neither does the page")
  }

  @Test func scriptURLsAreRefusedHoweverSpelled() {
    for url in ["javascript:alert(1)", " JAVASCRIPT:alert(1)", "java\nscript:alert(1)", "\u{01}vbscript:x"] {
      let html = render(
        #"<div data-sc-topic="t"><a href="/safe" data-sc-attr="href: u">x</a></div>"#, ["u": .string(url)])
      #expect(!html.contains("href="), "\(url) was written")
    }
    let safe = render(
      #"<div data-sc-topic="t"><a data-sc-attr="href: u">x</a></div>"#, ["u": "/artist/42?x=1&y=2"])
    #expect(safe.contains(#"href="/artist/42?x=1&amp;y=2""#))
  }

  @Test func thePageDataCannotEndItsScript() throws {
    let data: JSON = [
      "session": "s", "topics": ["t": ["rev": 3, "state": ["s": "</script><script>alert(1)</script><!--"]]],
    ]
    let html = render("<html><body><div data-sc-topic=\"t\"></div></body></html>", [:], pageData: data)
    let script = html.components(separatedBy: "id=\"statecast-page\">")[1].components(
      separatedBy: "</script>")[0]
    #expect(!script.contains("<"))
    #expect(
      try JSON(parsing: script)["topics"]?["t"]?["state"]?["s"]?.stringValue
        == "</script><script>alert(1)</script><!--")
    #expect(html.hasSuffix("</script></body></html>"))
  }

  @Test func topicsAreNamedFromTheAddressAndBrowserOnesAreLeftToTheRuntime() {
    let nodes = HTMLTemplateParser.parse(
      """
      <main data-sc-topic="board/{query.room|lobby}" data-sc-params='{"path":"$location.pathname","q":"$query.room","n":"$$x"}'>
        <div data-sc-topic="nested"></div></main>
      <div data-sc-topic="todos/{browser}"></div><div data-sc-topic="counter/{query.none}"></div>
      """)
    let topics = PageRenderer.topics(in: nodes, at: location)
    #expect(topics.map(\.name) == ["board/team", "counter"])
    #expect(topics[0].params == ["path": "/board.html", "q": "team", "n": "$x"])
  }

  @Test func aBrowserTopicIsNamedFromTheBrowsersCookie() {
    let id = "00112233445566778899aabbccddeeff"
    let nodes = HTMLTemplateParser.parse("<section data-sc-topic=\"todos/{browser}\"></section>")
    func browser(_ cookie: String) -> String? {
      PageLocation.browserID(in: UpgradeRequestInfo(path: "/", headers: ["cookie": cookie]))
    }
    #expect(browser("a=1; statecast_browser=\(id)") == id)
    // Not one of the runtime's ids, or planted twice (another site of the host): none.
    for cookie in [
      "statecast_browser=\(id.uppercased())", "statecast_browser=\(id)0", "statecast_browser=../x",
      "statecast_browser=\(id); statecast_browser=ffffffffffffffffffffffffffffffff", "other=\(id)",
    ] {
      #expect(browser(cookie) == nil, "\(cookie)")
    }
    var location = PageLocation(target: "/")
    #expect(PageRenderer.topics(in: nodes, at: location).isEmpty)
    location.browser = id
    #expect(PageRenderer.topics(in: nodes, at: location).map(\.name) == ["todos/\(id)"])
  }

  @Test func theParserKeepsItsPromisesOnLooseMarkup() {
    let nodes = HTMLTemplateParser.parse(
      "<ul><li>a<li>b</ul><select><option>x<option selected>y</select><p>z</div>")
    #expect(
      HTMLSerializer.serialize(nodes)
        == "<ul><li>a</li><li>b</li></ul><select><option>x</option><option selected>y</option></select><p>z</p>"
    )
  }
}
